// Helpers for driving the CLI: in-process through `main(argv, io)` with memory streams, or as a
// real process inside a pseudo-terminal (util-linux `script`), the way a person runs it.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import type { Scenario, ScriptedModelServer } from '@a3s-lab/code-testing';
import { stripAnsi } from '../src/ansi.js';
import type { CliIo } from '../src/cli-io.js';
import { main } from '../src/main.js';
import { identifyProjectConfig, trustProjectConfig } from '../src/project-trust.js';

/** apps/cli. */
export const CLI_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * The `a3s-code` binary the process-level tests run: `$A3S_CODE_BIN` (the packaging job points it
 * at the bin of the packed and installed tarball), else the built `apps/cli/dist/bin.js`
 * (after `pnpm run build`). A `.js` file runs with this node; anything else is executed as is.
 */
export const CLI_BIN = process.env['A3S_CODE_BIN'] ?? join(CLI_DIR, 'dist', 'bin.js');

/**
 * True when the process-level tests cannot run here: no binary. Locally they are skipped with a
 * message; in CI (which builds before testing) a missing binary fails them instead.
 */
export const CLI_BIN_MISSING = !existsSync(CLI_BIN) && process.env['CI'] !== 'true';
if (CLI_BIN_MISSING) console.warn(`a3s-code binary tests skipped: ${CLI_BIN} is missing (run pnpm run build, or set A3S_CODE_BIN)`);

/** `[file, args]` that run the binary with `args`. */
export function binCommand(args: readonly string[]): [string, string[]] {
  return /\.[cm]?js$/.test(CLI_BIN) ? [process.execPath, [CLI_BIN, ...args]] : [CLI_BIN, [...args]];
}

/** What a finished binary run printed. */
export interface BinResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the binary with pipes for stdio (no TTY anywhere); `input` is written to stdin, which is
 * then closed (empty when not given).
 */
export function runBin(args: readonly string[], options: { env: Record<string, string>; cwd: string; input?: string }): Promise<BinResult> {
  const [file, argv] = binCommand(args);
  return new Promise((resolveRun, reject) => {
    const child = spawn(file, argv, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => resolveRun({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** The environment without any model key (and with a private HOME). */
export function cleanEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (/^(ANTHROPIC|OPENAI)_/.test(name) || name === 'NO_COLOR' || name === 'FORCE_COLOR') continue;
    env[name] = value;
  }
  return { ...env, HOME: home, ...extra };
}

/** A temp directory holding `files`; `cleanup` removes it. */
export function tempDir(prefix: string, files: Readonly<Record<string, string>> = {}): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What {@link scriptedRunFixture} gives a describe block. */
export interface ScriptedRunFixture {
  /** Starts this test's scripted model server. */
  start(scenario: Scenario): Promise<ScriptedModelServer>;
  /** This test's server, once started. */
  server(): ScriptedModelServer | undefined;
  /** A temp directory removed after the test. */
  tempDir(prefix: string, files?: Readonly<Record<string, string>>): string;
}

/** Per-test scripted server and temp directories, closed and removed after each test (call in a describe). */
export function scriptedRunFixture(): ScriptedRunFixture {
  let server: ScriptedModelServer | undefined;
  const cleanups: Array<() => void> = [];
  afterEach(async () => {
    await server?.close();
    server = undefined;
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  return {
    start: async (scenario) => {
      server = await startScriptedModelServer({ scenario });
      return server;
    },
    server: () => server,
    tempDir: (prefix, files = {}) => {
      const made = tempDir(prefix, files);
      cleanups.push(made.cleanup);
      return made.dir;
    },
  };
}

// The CLI tests look at host process groups through `$$` of the tool's shell, which inside the
// OS sandbox's pid namespace is not a host pid: they run unsandboxed (the sandbox has its own
// tests, packages/sdk/test/sandbox.test.ts and packages/local/test/sandbox-escape.test.ts).
/** ACL text pointing the `anthropic` provider at a scripted server. */
export function scriptedAcl(server: ScriptedModelServer): string {
  return `default_model = "anthropic/claude-test"
providers "anthropic" {
  api_key = "sk-ant-cli-test-0000"
  base_url = "${server.anthropicBaseUrl}"
  models "claude-test" { tool_call = true }
}
sandbox { mode = "off" }
`;
}

/**
 * Writes `<workspace>/.a3s/config.acl` for a scripted server and, as the user would after
 * reviewing it, records it as trusted in `home`'s trust store.
 */
export function writeWorkspaceConfig(workspace: string, server: ScriptedModelServer, home: string): void {
  mkdirSync(join(workspace, '.a3s'), { recursive: true });
  writeFileSync(join(workspace, '.a3s', 'config.acl'), scriptedAcl(server));
  trustProjectConfig(identifyProjectConfig(join(workspace, '.a3s', 'config.acl')), { HOME: home });
}

/** Memory streams for `main`. */
export interface MemoryIo {
  readonly io: CliIo;
  readonly stdin: PassThrough;
  stdout(): string;
  stderr(): string;
}

/** Options of {@link memoryIo} and {@link runMain}. */
export interface MemoryIoOptions {
  readonly env: Record<string, string | undefined>;
  readonly cwd: string;
  /** stdin is a TTY (left open for typed answers). Default false. */
  readonly stdinTty?: boolean;
  /** What a non-TTY stdin holds; it is then closed, as a pipe would be. Default ''. */
  readonly input?: string;
}

/** A `CliIo` over memory streams: stdin is not a TTY (a closed pipe holding `input`) unless `stdinTty`. */
export function memoryIo(options: MemoryIoOptions): MemoryIo {
  const stdin = new PassThrough();
  if (options.stdinTty === true) Object.assign(stdin, { isTTY: true });
  else stdin.end(options.input ?? '');
  const out: string[] = [];
  const err: string[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (c: Buffer) => out.push(c.toString('utf8')));
  stderr.on('data', (c: Buffer) => err.push(c.toString('utf8')));
  return {
    io: { stdin, stdout, stderr, env: options.env, cwd: options.cwd },
    stdin,
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}

/** Runs `main` in-process; resolves with the exit code and what was written. */
export async function runMain(argv: readonly string[], options: MemoryIoOptions): Promise<{ code: number; stdout: string; stderr: string }> {
  const memory = memoryIo(options);
  const code = await main(argv, memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

const shellQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/** A CLI process inside a pseudo-terminal. */
export interface PtyProcess {
  readonly child: ChildProcess;
  /** What the terminal shows: ANSI stripped, lines redrawn after a carriage return collapsed. */
  screen(): string;
  /** Every byte the terminal received, escape sequences and carriage returns included. */
  raw(): string;
  /** Types into the terminal. */
  type(text: string): void;
  /** Waits until `predicate(screen)` holds. */
  waitFor(predicate: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** The exit code. */
  exited: Promise<number>;
}

// Fallback when util-linux `script` is missing: python3's pty module, exit status passed on.
const PYTHON_PTY = [
  'import os, pty, sys',
  "status = pty.spawn(['/bin/sh', '-c', sys.argv[1]])",
  'code = os.waitstatus_to_exitcode(status)',
  'sys.exit(128 - code if code < 0 else code)',
].join('\n');

let hasScript: boolean | undefined;

/** `[command, args]` running the shell command `command` inside a fresh pseudo-terminal. */
function ptyCommand(command: string): [string, string[]] {
  // A3S_TEST_PTY=python forces the fallback (to test it on machines that have `script`).
  hasScript ??= process.env['A3S_TEST_PTY'] !== 'python' && spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
  return hasScript ? ['script', ['-q', '-e', '-c', command, '/dev/null']] : ['python3', ['-c', PYTHON_PTY, command]];
}

/**
 * Starts the `a3s-code` binary ({@link CLI_BIN}) with `args` in a pseudo-terminal made by
 * util-linux `script` (or python3's `pty`), so stdin, stdout and stderr are a real TTY: prompts,
 * line discipline, Ctrl-C -> SIGINT. `TERM` is `options.term`, default `xterm`.
 */
export function spawnInPty(args: readonly string[], env: Record<string, string>, options: { readonly term?: string } = {}): PtyProcess {
  const [bin, binArgs] = binCommand(args);
  const command = ['exec', shellQuote(bin), ...binArgs.map(shellQuote)].join(' ');
  const [file, ptyArgs] = ptyCommand(command);
  const child = spawn(file, ptyArgs, { cwd: CLI_DIR, env: { ...env, TERM: options.term ?? 'xterm', SHELL: '/bin/sh' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let raw = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    raw += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  // What stays visible: on each line, only what was written after the last carriage return
  // (the spinner redraws its line with `\r` + erase-line).
  const screen = (): string =>
    raw
      .split('\n')
      .map((line) => {
        const visible = line.replace(/\r+$/, '');
        return stripAnsi(visible.slice(visible.lastIndexOf('\r') + 1));
      })
      .join('\n');
  const exited = new Promise<number>((resolveExit) => child.on('exit', (code, signal) => resolveExit(code ?? (signal === null ? -1 : 128))));
  return {
    child,
    screen,
    raw: () => raw,
    type: (text) => {
      child.stdin?.write(text);
    },
    waitFor: (predicate, what, timeoutMs = 60_000) =>
      new Promise<void>((resolveWait, reject) => {
        const check = (): void => {
          if (predicate(screen())) {
            listeners.delete(check);
            clearTimeout(timer);
            resolveWait();
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${what}; screen so far:\n${screen()}`));
        }, timeoutMs);
        listeners.add(check);
        void exited.then(() => setTimeout(() => {
          if (listeners.has(check)) {
            listeners.delete(check);
            clearTimeout(timer);
            reject(new Error(`the CLI exited while waiting for ${what}; screen:\n${screen()}`));
          }
        }, 50));
        check();
      }),
    exited,
  };
}

/** Live (non-zombie) processes whose process group is `pgid` (from /proc). */
export function liveProcessesInGroup(pgid: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the parenthesised command: state ppid pgrp ...
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') pids.push(Number(name));
  }
  return pids;
}

/** True when `pid` runs and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Polls `predicate` every 50 ms until it holds or `timeoutMs` passes; returns its last value. */
export async function eventually(predicate: () => boolean, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return predicate();
}
