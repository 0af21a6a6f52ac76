/** What a wrapper command runs: a command (argv), a shell script string, or something unseen. */
export type WrappedCommand =
  | { readonly kind: 'command'; readonly words: readonly string[] }
  | { readonly kind: 'script'; readonly script: string }
  /** A script file or an interactive shell: nothing to extract, still not simple. */
  | { readonly kind: 'opaque' };

/** A recognised wrapper invocation and what it runs. */
export interface UnwrappedCommand {
  /** The wrapper's name as matched (`sudo`, `bash -c`, `find -exec`...). */
  readonly name: string;
  readonly inner: readonly WrappedCommand[];
}

interface WrapperSpec {
  /** Options whose value is the next word (`sudo -u root`). */
  readonly valueOptions?: readonly string[];
  /** Options whose value is a shell script (`su -c 'cmd'`, `env -S 'cmd args'`). */
  readonly scriptOptions?: readonly string[];
  /** Positional words between the options and the command (`timeout 5 cmd`, `chroot /dir cmd`). */
  readonly positionals?: number;
  /** The remaining words are joined and run by a shell (`eval`, `watch`). */
  readonly joinAsScript?: boolean;
  /** `NAME=value` words before the command are environment settings (`env`, `sudo`). */
  readonly skipAssignments?: boolean;
  /** Without a script option it runs something we cannot see (`su`, `script`, `source`). */
  readonly opaque?: boolean;
  /** A lone `-` is an option (`env -` = `env -i`), not the command. */
  readonly dashIsOption?: boolean;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: {
    valueOptions: ['-u', '--unset', '-C', '--chdir', '-P', '-a', '--argv0'],
    scriptOptions: ['-S', '--split-string'],
    skipAssignments: true,
    dashIsOption: true,
  },
  sudo: {
    valueOptions: ['-u', '--user', '-g', '--group', '-C', '--close-from', '-D', '--chdir', '-h', '--host', '-p', '--prompt', '-r', '--role', '-t', '--type', '-T', '--command-timeout', '-U', '--other-user'],
    skipAssignments: true,
  },
  doas: { valueOptions: ['-u', '-C'] },
  pkexec: { valueOptions: ['--user'] },
  su: { scriptOptions: ['-c', '--command'], opaque: true },
  runuser: { scriptOptions: ['-c', '--command'], valueOptions: ['-u', '--user', '-g', '--group'] },
  script: { scriptOptions: ['-c', '--command'], opaque: true },
  source: { opaque: true },
  '.': { opaque: true },
  eval: { joinAsScript: true },
  watch: { valueOptions: ['-n', '--interval', '-q', '--equexit'], joinAsScript: true },
  exec: { valueOptions: ['-a'] },
  command: {},
  builtin: {},
  nohup: {},
  setsid: {},
  unbuffer: {},
  busybox: {},
  'dbus-run-session': {},
  time: { valueOptions: ['-f', '--format', '-o', '--output'] },
  nice: { valueOptions: ['-n', '--adjustment'] },
  ionice: { valueOptions: ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  stdbuf: { valueOptions: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  timeout: { valueOptions: ['-s', '--signal', '-k', '--kill-after'], positionals: 1 },
  chroot: { valueOptions: ['--userspec', '--groups'], positionals: 1 },
  chrt: { positionals: 1 },
  taskset: { positionals: 1 },
  flock: { valueOptions: ['-w', '--timeout', '-E', '--conflict-exit-code'], scriptOptions: ['-c', '--command'], positionals: 1 },
  caffeinate: { valueOptions: ['-t', '-w'] },
  nsenter: { valueOptions: ['-t', '--target', '-S', '--setuid', '-G', '--setgid'] },
  unshare: {},
  strace: { valueOptions: ['-o', '-p', '-e', '-s', '-u', '-a', '-b', '-E', '-I', '-O', '-P', '-S', '-X'] },
  ltrace: { valueOptions: ['-o', '-p', '-e', '-s', '-u', '-a', '-n', '-l'] },
  xargs: { valueOptions: ['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a', '--max-args', '--max-lines', '--max-procs', '--max-chars', '--delimiter', '--eof', '--arg-file'] },
  parallel: { joinAsScript: true },
};

const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'fish', 'csh', 'tcsh']);
const FIND_EXEC: ReadonlySet<string> = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * Recognises a command that runs (part of) its arguments as another command — shells with
 * `-c`, `eval`, `exec`, `source`, `env`, `command`, `sudo`, `xargs`, `timeout`, `find -exec`...
 * — and extracts what it runs, so deny rules see `rm` in `sudo -u root rm -rf /`. The command name
 * is matched by basename, case-insensitively (`/usr/bin/SUDO` on a case-insensitive disk).
 *
 * @returns null when `words` is not a wrapper invocation.
 */
export function unwrapCommand(words: readonly string[]): UnwrappedCommand | null {
  const first = words[0];
  if (first === undefined) return null;
  const name = first.slice(first.lastIndexOf('/') + 1).toLowerCase();
  if (SHELLS.has(name)) return { name, inner: unwrapShell(words) };
  if (name === 'find') {
    const inner = unwrapFind(words);
    return inner.length === 0 ? null : { name: 'find -exec', inner };
  }
  if (name === 'alias' || name === 'trap') return { name, inner: unwrapDefinitions(name, words) };
  const spec = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
  return spec === undefined ? null : { name, inner: unwrapGeneric(spec, words) };
}

function unwrapGeneric(spec: WrapperSpec, words: readonly string[]): WrappedCommand[] {
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index] as string;
    for (const option of spec.scriptOptions ?? []) {
      if (word === option) return scriptOf(words[index + 1]);
      if (option.startsWith('--') && word.startsWith(`${option}=`)) return scriptOf(word.slice(option.length + 1));
    }
  }
  if (spec.opaque === true) return [{ kind: 'opaque' }];
  let index = 1;
  while (index < words.length) {
    const word = words[index] as string;
    if (word === '--') {
      index += 1;
      break;
    }
    if (word === '-' && spec.dashIsOption === true) {
      index += 1;
      continue;
    }
    if (word.length < 2 || !word.startsWith('-')) break;
    index += spec.valueOptions?.includes(word) === true ? 2 : 1;
  }
  if (spec.skipAssignments === true) {
    while (index < words.length && ASSIGNMENT.test(words[index] as string)) index += 1;
  }
  const rest = words.slice(index + (spec.positionals ?? 0));
  if (rest.length === 0) return [];
  return spec.joinAsScript === true ? [{ kind: 'script', script: rest.join(' ') }] : [{ kind: 'command', words: rest }];
}

function scriptOf(script: string | undefined): WrappedCommand[] {
  return script === undefined ? [] : [{ kind: 'script', script }];
}

/** `bash [options] -c 'script' [args]`; without `-c` a shell runs a file or stdin. */
function unwrapShell(words: readonly string[]): WrappedCommand[] {
  let runsString = false;
  let index = 1;
  while (index < words.length) {
    const word = words[index] as string;
    if (word === '--' || word === '-') {
      index += 1;
      break;
    }
    if (word === '--command') return scriptOf(words[index + 1]);
    if (word.startsWith('--command=')) return scriptOf(word.slice('--command='.length));
    if (word.startsWith('--')) {
      index += word === '--rcfile' || word === '--init-file' ? 2 : 1;
      continue;
    }
    if (word.length < 2 || !(word.startsWith('-') || word.startsWith('+'))) break;
    const letters = word.slice(1);
    runsString ||= letters.includes('c');
    index += /[oO]/.test(letters) ? 2 : 1;
  }
  return runsString ? scriptOf(words[index]) : [{ kind: 'opaque' }];
}

/** Every `-exec cmd args ;` / `-execdir ... +` clause of a `find`. */
function unwrapFind(words: readonly string[]): WrappedCommand[] {
  const inner: WrappedCommand[] = [];
  for (let index = 1; index < words.length; index += 1) {
    if (!FIND_EXEC.has(words[index] as string)) continue;
    const command: string[] = [];
    index += 1;
    while (index < words.length && words[index] !== ';' && words[index] !== '+') {
      command.push(words[index] as string);
      index += 1;
    }
    if (command.length > 0) inner.push({ kind: 'command', words: command });
  }
  return inner;
}

/** `alias name='script'` and `trap 'script' SIGNAL`: the stored text runs later. */
function unwrapDefinitions(name: string, words: readonly string[]): WrappedCommand[] {
  const args = words.slice(1).filter((word) => !word.startsWith('-'));
  if (name === 'trap') return args.length > 1 ? scriptOf(args[0]) : [];
  return args.flatMap((word) => {
    const equals = word.indexOf('=');
    return equals === -1 ? [] : scriptOf(word.slice(equals + 1));
  });
}
