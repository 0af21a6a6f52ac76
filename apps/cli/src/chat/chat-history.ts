// The chat's input history, kept across chats in ~/.a3s/chat-history (one prompt a line, newest
// last, at most HISTORY_SIZE lines; readable by the user only), like a shell's.
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Most prompts kept. */
export const HISTORY_SIZE = 500;

/** The history file under `HOME`. */
export function historyFile(env: Readonly<Record<string, string | undefined>>): string {
  return join(env['HOME'] ?? homedir(), '.a3s', 'chat-history');
}

/** The saved prompts, newest first (readline's order); `[]` when there are none or on error. */
export function loadHistory(file: string): string[] {
  try {
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8').split('\n').filter((line) => line.length > 0).slice(-HISTORY_SIZE).reverse();
  } catch {
    return [];
  }
}

/** Appends one prompt (multi-line prompts are kept as one line); rewrites the file when it grew past twice the limit. Never throws. */
export function appendHistory(file: string, prompt: string): void {
  try {
    const line = prompt.replace(/\s*\n\s*/g, ' ');
    mkdirSync(dirname(file), { recursive: true });
    const fresh = !existsSync(file);
    appendFileSync(file, `${line}\n`, { mode: 0o600 });
    if (fresh) chmodSync(file, 0o600);
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0);
    if (lines.length > 2 * HISTORY_SIZE) writeFileSync(file, `${lines.slice(-HISTORY_SIZE).join('\n')}\n`, { mode: 0o600 });
  } catch {
    // A history that cannot be written is not worth failing a chat over.
  }
}
