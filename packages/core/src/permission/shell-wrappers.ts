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
  /**
   * True for wrappers that run the argv after their own options (`sudo`, `timeout 5`, `prlimit`):
   * an option whose arity the analyser does not know could shift where the command starts, so
   * every suffix of the words is also a candidate for deny and ask rules.
   */
  readonly argvWrapper?: boolean;
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
  sem: { joinAsScript: true },
  // Personality, resource-limit, privilege, scheduling, namespace and sandbox runners: each
  // runs the command that follows its options (the analyser also tries every suffix, below).
  setarch: { positionals: 1 },
  linux32: {},
  linux64: {},
  i386: {},
  x86_64: {},
  uname26: {},
  prlimit: { valueOptions: ['-p', '--pid', '-o', '--output'] },
  setpriv: {},
  numactl: {},
  cgexec: { valueOptions: ['-g'] },
  'systemd-run': {},
  'systemd-inhibit': {},
  firejail: {},
  bwrap: {},
  proot: {},
  fakeroot: {},
  fakechroot: {},
  faketime: { positionals: 1 },
  cpulimit: { valueOptions: ['-l', '--limit', '-p', '--pid', '-e', '--exe'] },
  trickle: { valueOptions: ['-u', '-d', '-w', '-t', '-l', '-n'] },
  torsocks: {},
  proxychains: {},
  proxychains4: {},
  tsocks: {},
  catchsegv: {},
  valgrind: {},
  perf: { positionals: 1 },
  rr: { positionals: 1 },
  sg: { scriptOptions: ['-c'], positionals: 1 },
  chronic: {},
  ifne: {},
  entr: {},
  retry: {},
  'with-contenv': {},
  s6: {},
  chpst: { valueOptions: ['-u', '-U', '-e', '-/', '-n', '-l', '-L', '-m', '-d', '-o', '-p', '-f', '-c', '-r', '-t'] },
  softlimit: {},
  setuidgid: { positionals: 1 },
  envdir: { positionals: 1 },
  envuidgid: { positionals: 1 },
  sudoedit: { opaque: true },
  // Privilege droppers, init shims and environment launchers.
  capsh: { scriptOptions: ['-c'] },
  gosu: { positionals: 1 },
  'su-exec': { positionals: 1 },
  tini: {},
  'dumb-init': {},
  'ssh-agent': {},
  'dbus-launch': {},
  'xvfb-run': {},
  eatmydata: {},
  nocache: {},
  ccache: {},
  distcc: {},
  schroot: {},
  'lxc-attach': {},
  'flatpak-spawn': {},
  'distrobox-enter': {},
  daemonize: {},
  nq: {},
  tsp: {},
  timelimit: {},
  heaptrack: {},
  lldb: {},
  watchexec: {},
  hyperfine: { joinAsScript: true },
  nodemon: { opaque: true },
  mosh: { opaque: true },
  'start-stop-daemon': { opaque: true },
  // Builtins that run a command given as an argument: now (`compgen -C`) or later.
  compgen: { opaque: true },
  complete: { opaque: true },
  bind: { opaque: true },
  enable: { opaque: true },
  // Package runners: the first word is a binary of the project (or downloaded) run with the rest.
  npx: { scriptOptions: ['-c', '--call'] },
  pnpx: {},
  bunx: {},
  uvx: {},
  pipx: { opaque: true },
  // Remote shells, terminal multiplexers and schedulers run a command we cannot follow.
  ssh: { opaque: true },
  tmux: { opaque: true },
  screen: { opaque: true },
  at: { opaque: true },
  batch: { opaque: true },
  expect: { opaque: true },
};

/**
 * `tool subcommand ...rest` forms that run `rest` as a command: `npm exec`, `uv run`,
 * `bundle exec`, `nix develop -c`... (the wrapper's name is `tool subcommand`).
 */
const SUBCOMMAND_WRAPPERS: Readonly<Record<string, Readonly<Record<string, WrapperSpec>>>> = {
  npm: { exec: { scriptOptions: ['-c', '--call'] }, x: { scriptOptions: ['-c', '--call'] } },
  pnpm: { exec: {}, dlx: {}, x: {} },
  yarn: { exec: {}, dlx: {} },
  bun: { x: {}, exec: {} },
  uv: { run: {}, tool: { opaque: true } },
  poetry: { run: {} },
  pipenv: { run: {} },
  pdm: { run: {} },
  hatch: { run: {} },
  bundle: { exec: {} },
  conda: { run: { valueOptions: ['-n', '--name', '-p', '--prefix', '--cwd'] } },
  mamba: { run: { valueOptions: ['-n', '--name', '-p', '--prefix', '--cwd'] } },
  mise: { exec: {}, x: {} },
  asdf: { exec: {} },
  direnv: { exec: { positionals: 1 } },
  nix: { develop: { scriptOptions: ['-c', '--command'], opaque: true }, shell: { scriptOptions: ['-c', '--command'], opaque: true }, run: { opaque: true } },
  'nix-shell': { '--run': { joinAsScript: true }, '--command': { joinAsScript: true } },
  docker: { run: { opaque: true }, exec: { opaque: true } },
  podman: { run: { opaque: true }, exec: { opaque: true } },
  kubectl: { exec: { opaque: true }, run: { opaque: true } },
  doppler: { run: {} },
  op: { run: {} },
  'aws-vault': { exec: { positionals: 1 } },
  dotenv: { run: {} },
};

/**
 * Interpreters and tools whose program text is an argument: the text can run commands
 * (`awk 'BEGIN{system("rm x")}'`, `perl -e`, `python -c`, `node -e`...). Listed with the options
 * that take inline code; `true` means the first operand is always program text (awk).
 */
const INTERPRETERS: Readonly<Record<string, readonly string[] | true>> = {
  awk: true,
  gawk: true,
  mawk: true,
  nawk: true,
  perl: ['-e', '-E'],
  ruby: ['-e'],
  python: ['-c'],
  python2: ['-c'],
  python3: ['-c'],
  pypy: ['-c'],
  pypy3: ['-c'],
  node: ['-e', '--eval', '-p', '--print'],
  nodejs: ['-e', '--eval', '-p', '--print'],
  deno: ['eval'],
  bun: ['-e', '--eval', '-p', '--print'],
  php: ['-r', '-B', '-R', '-E', '-F'],
  lua: ['-e'],
  luajit: ['-e'],
  tclsh: true,
  wish: true,
  rscript: ['-e'],
  r: ['-e'],
  osascript: ['-e'],
  pwsh: true,
  powershell: true,
  jshell: true,
  gdb: ['-ex', '--eval-command', '-x', '--command', '--args'],
  vim: ['-c', '--cmd', '-S'],
  vi: ['-c', '--cmd', '-S'],
  nvim: ['-c', '--cmd', '-S', '-l'],
  ex: true,
  emacs: ['--eval', '-l', '--load', '-f', '--funcall', '--batch', '-batch'],
};

const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'rbash', 'zsh', 'rzsh', 'dash', 'ksh', 'rksh', 'pdksh', 'oksh', 'mksh', 'ash', 'yash', 'posh', 'fish', 'csh', 'tcsh', 'elvish', 'xonsh', 'nu']);

/** True for a command name (basename, case-insensitive) the analyser unwraps or treats as an interpreter. */
export function isWrapperName(word: string): boolean {
  const name = word.slice(word.lastIndexOf('/') + 1).toLowerCase();
  return SHELLS.has(name) || Object.hasOwn(WRAPPERS, name) || Object.hasOwn(SUBCOMMAND_WRAPPERS, name) || Object.hasOwn(INTERPRETERS, pythonBase(name)) || name === 'find' || name === 'alias' || name === 'trap';
}

// python3.12 -> python3, perl5.36 -> perl5 is not listed, so perl5.36 -> perl.
function pythonBase(name: string): string {
  const versioned = /^(python|pypy|perl|ruby|lua|php|node|tclsh|wish)\d*(\.\d+)*$/.exec(name);
  if (versioned === null) return name;
  const base = versioned[1] as string;
  return base === 'python' && /^python3/.test(name) ? 'python3' : base;
}
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
  if (spec !== undefined) return { name, inner: unwrapGeneric(spec, words), argvWrapper: true };
  const subcommands = Object.hasOwn(SUBCOMMAND_WRAPPERS, name) ? SUBCOMMAND_WRAPPERS[name] : undefined;
  const subcommand = words[1];
  if (subcommands !== undefined && subcommand !== undefined && Object.hasOwn(subcommands, subcommand)) {
    return { name: `${name} ${subcommand}`, inner: unwrapGeneric(subcommands[subcommand] as WrapperSpec, words.slice(1)), argvWrapper: true };
  }
  const interpreter = INTERPRETERS[pythonBase(name)];
  if (interpreter !== undefined && Object.hasOwn(INTERPRETERS, pythonBase(name))) {
    const inline = interpreter === true || words.slice(1).some((word) => interpreter.some((option) => word === option || (option.startsWith('--') ? word.startsWith(`${option}=`) : word.startsWith(option) && !word.startsWith('--'))));
    return inline ? { name: `${name} (interpreter)`, inner: [{ kind: 'opaque' }] } : null;
  }
  return null;
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
