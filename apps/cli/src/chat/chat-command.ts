// `a3s-code` with no prompt on a terminal: a chat on one durable session. Lines are read with
// node:readline (line editing, display widths, input history kept in ~/.a3s/chat-history);
// each prompt is a turn printed as `run` prints it; slash commands are the session's own plus
// /help, /sessions and /exit.
import { createInterface } from 'node:readline';
import { sanitizeTerminalText } from '../ansi.js';
import type { Style } from '../ansi.js';
import type { CliIo } from '../cli-io.js';
import { EXIT_CODES } from '../exit-codes.js';
import { reportError } from '../report-error.js';
import { resolveWorkspace } from '../run-command.js';
import type { ChatOptions } from './chat-args.js';
import { openChat, switchModel, workspaceSessions } from './chat-session.js';
import type { OpenChat } from './chat-session.js';
import { HISTORY_SIZE, appendHistory, historyFile, loadHistory } from './chat-history.js';
import { chatTurn } from './chat-turn.js';

/** Commands of the chat itself (the session's own are listed by `/help` too). */
const HOST_COMMANDS: ReadonlyArray<readonly [string, string]> = [
  ['model NAME', 'Switch this session to another model the config declares (provider/model)'],
  ['sessions', 'List the saved sessions of this workspace (resume one with a3s-code --resume ID)'],
  ['exit', 'Leave the chat (the session is saved; a3s-code --continue picks it up)'],
];


/**
 * Reads one line at the `›` prompt. `null`: Ctrl-D, or Ctrl-C on an empty line (leave the
 * chat); Ctrl-C with text typed drops the line (`''`). The terminal is raw only while reading,
 * so a running turn gets Ctrl-C as SIGINT (cancel the turn) and answers as cooked lines.
 */
function readPrompt(io: CliIo, style: Style, history: string[]): Promise<string | null> {
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: true, history: [...history], historySize: HISTORY_SIZE, removeHistoryDuplicates: true, prompt: `${style.bold('›')} ` });
  return new Promise((resolve) => {
    let done = false;
    const finish = (line: string | null): void => {
      if (done) return;
      done = true;
      rl.close();
      resolve(line);
    };
    rl.on('line', (line) => finish(line));
    rl.on('close', () => finish(null));
    rl.on('SIGINT', () => {
      const typed = rl.line.length > 0;
      io.stderr.write(typed ? '^C\n' : '\n');
      finish(typed ? '' : null);
    });
    rl.prompt();
  });
}

async function helpText(chat: OpenChat): Promise<string> {
  const own = chat.session.listCommands().map((c) => `  /${c.name.padEnd(10)} ${c.description}`);
  const host = HOST_COMMANDS.map(([name, description]) => `  /${name.padEnd(10)} ${description}`);
  return ['Commands:', ...own, ...host, 'Anything else is a prompt. Ctrl-C cancels a running turn (twice: exit); Ctrl-D or /exit leaves.'].join('\n');
}

async function sessionsText(chat: OpenChat): Promise<string> {
  const saved = await workspaceSessions(chat.store, chat.session.workspace);
  if (saved.length === 0) return 'no saved sessions of this workspace';
  return saved
    .slice(0, 20)
    .map((s) => `  ${s.sessionId === chat.session.id ? '*' : ' '} ${s.sessionId}  ${new Date(s.updatedAtMs).toISOString().replace('T', ' ').slice(0, 19)}  ${s.messages} message(s)`)
    .join('\n');
}

/** Runs a slash command; `null` for `/exit`, else the chat (another session after `/model X`). */
async function slashCommand(line: string, chat: OpenChat, io: CliIo, style: Style): Promise<OpenChat | null> {
  const [name = '', ...rest] = line.slice(1).split(/\s+/);
  if (name === 'exit' || name === 'quit') return null;
  let text: string;
  if (name === 'model' && rest.join('').length > 0) {
    try {
      chat = await switchModel(chat, rest.join(' '));
      text = `now on ${chat.model} (same session, conversation kept)`;
    } catch (error) {
      text = style.yellow(error instanceof Error ? error.message : String(error));
    }
  } else if (name === 'help') text = await helpText(chat);
  else if (name === 'sessions') text = await sessionsText(chat);
  else if (chat.session.listCommands().some((c) => c.name === name)) text = (await chat.session.send(line)).text;
  else text = style.yellow(`unknown command /${name} (see /help)`);
  io.stderr.write(`${sanitizeTerminalText(text).replace(/\n*$/, '')}\n`);
  return chat;
}

/** The chat: returns the exit code when the human leaves (0), or a setup error's code. */
export async function chatCommand(options: ChatOptions, io: CliIo, style: Style): Promise<number> {
  let chat: OpenChat | undefined;
  try {
    const workspace = resolveWorkspace(io, options.workspace);
    chat = await openChat(options, workspace, io, style);
    const { session } = chat;
    const mode = options.permissionMode ?? (chat.agent.config.permissionPolicy === undefined ? 'default' : 'from config');
    const messages = session.snapshot().conversation.length;
    io.stderr.write(
      style.dim(`a3s-code · ${chat.model} · ${workspace} · permissions: ${mode}${options.yes ? ' + --yes' : ''} · config: ${chat.from}\n`) +
        style.dim(`session ${session.id}${chat.resumed ? ` (resumed, ${messages} message(s))` : ''} · /help for commands, /exit to leave\n`),
    );
    const savedHistory = historyFile(io.env);
    const history = loadHistory(savedHistory);
    const allowed = new Set<string>();
    for (;;) {
      const line = await readPrompt(io, style, history);
      if (line === null) break;
      const prompt = line.trim();
      if (prompt.length === 0) continue;
      if (history[0] !== prompt) {
        history.unshift(prompt);
        appendHistory(savedHistory, prompt);
      }
      history.length = Math.min(history.length, HISTORY_SIZE);
      if (prompt.startsWith('/')) {
        const next = await slashCommand(prompt, chat, io, style);
        if (next === null) break;
        chat = next;
        continue;
      }
      const outcome = await chatTurn({ session: chat.session, prompt, io, style, model: chat.model, yes: options.yes, allowed });
      if (outcome.cancelled) io.stderr.write(style.yellow('turn cancelled\n'));
    }
    await chat.session.flushSaves().catch(() => undefined);
    io.stderr.write(style.dim(`session ${chat.session.id} saved · a3s-code --continue to pick it up\n`));
    return EXIT_CODES.success;
  } catch (error) {
    return reportError(io, false, style, error);
  } finally {
    await chat?.agent.close();
  }
}
