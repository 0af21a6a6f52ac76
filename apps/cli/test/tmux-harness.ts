// Runs the `a3s-code` binary in a tmux pane (a real terminal: raw-mode line editing, Ctrl-C as
// SIGINT to the foreground process), typing keys and reading the screen with capture-pane.
import { spawnSync } from 'node:child_process';
import { binCommand } from './cli-harness.js';

/** True when tmux can run here. */
export const HAS_TMUX = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;

let counter = 0;
const shellQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/** A CLI process in its own tmux server. */
export interface TmuxProcess {
  /** Types `text` literally. */
  type(text: string): void;
  /** Presses keys by tmux name (`Enter`, `C-c`). */
  press(...keys: string[]): void;
  /** The pane, scrollback included. */
  screen(): string;
  /** Waits until `predicate(screen)` holds. */
  waitFor(predicate: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** The exit code once the CLI ended (the pane then shows `[exited N]`), else null. */
  exitCode(): number | null;
  /** Kills the tmux server. */
  kill(): void;
}

/** Starts `a3s-code args...` in a 160x50 tmux pane in `cwd` with `env`. */
export function startInTmux(args: readonly string[], env: Record<string, string>, cwd: string): TmuxProcess {
  const socket = `a3s-cli-test-${process.pid}-${counter++}`;
  const [bin, binArgs] = binCommand(args);
  // The pane's shell catches Ctrl-C (a trap is reset for the CLI it starts) so it outlives the
  // CLI and reports its exit status.
  const command = `trap 'true' INT; ${[bin, ...binArgs].map(shellQuote).join(' ')}; echo "[exited $?]"; sleep 600`;
  const { TMUX: _tmux, TMUX_PANE: _pane, ...clean } = env;
  const tmux = (...tmuxArgs: string[]): string => {
    const result = spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...tmuxArgs], { env: { ...clean, TERM: 'xterm-256color' }, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`tmux ${tmuxArgs[0]} failed: ${result.stderr}`);
    return result.stdout;
  };
  tmux('new-session', '-d', '-x', '160', '-y', '50', '-c', cwd, command);
  const screen = (): string => tmux('capture-pane', '-p', '-J', '-S', '-3000', '-t', '0');
  return {
    type: (text) => void tmux('send-keys', '-t', '0', '-l', text),
    press: (...keys) => void tmux('send-keys', '-t', '0', ...keys),
    screen,
    waitFor: async (predicate, what, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const shown = screen();
        if (predicate(shown)) return;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${shown}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    exitCode: () => {
      const match = /\[exited (\d+)\]/.exec(screen());
      return match === null ? null : Number(match[1]);
    },
    kill: () => {
      spawnSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    },
  };
}
