/**
 * Options that make a read-only-looking program write files or run programs. An allow rule
 * such as `bash(git log*)` or `bash(find *)` is meant for reading: it does not cover these unless
 * the rule itself names the option.
 */
export interface DangerousOptionTable {
  /**
   * `getopt`: `--long` (also any unambiguous prefix, `--long=value`) and `-x` (also glued into
   * a cluster such as `-nx` or `-xvalue`); `exact`: the word itself (find's `-delete`).
   */
  readonly style: 'getopt' | 'exact';
  readonly options: readonly string[];
  /** Options that only count before the first operand (git's global `-c`). */
  readonly leadingOptions?: readonly string[];
}

/** The table per program (by basename, lower-cased). */
export const DANGEROUS_OPTIONS: Readonly<Record<string, DangerousOptionTable>> = {
  git: {
    style: 'getopt',
    leadingOptions: ['-c', '--config-env', '--exec-path', '--git-dir', '--work-tree', '--namespace'],
    options: ['--output', '--no-index', '--ext-diff', '--textconv', '--show-signature', '--upload-pack', '--receive-pack', '--exec', '--open-files-in-pager', '-O', '--template', '--separate-git-dir'],
  },
  find: { style: 'exact', options: ['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls'] },
  rg: { style: 'getopt', options: ['--pre', '--hostname-bin'] },
  sed: { style: 'getopt', options: ['-i', '--in-place', '-f', '--file'] },
  sort: { style: 'getopt', options: ['-o', '--output', '--compress-program'] },
  tar: { style: 'getopt', options: ['--to-command', '--use-compress-program', '-I', '--checkpoint-action', '--info-script', '--new-volume-script', '-F', '--rsh-command', '--rmt-command'] },
  tree: { style: 'getopt', options: ['-o'] },
  less: { style: 'getopt', options: ['-o', '-O', '--log-file', '--LOG-FILE'] },
  man: { style: 'getopt', options: ['-P', '--pager', '-H', '--html'] },
  date: { style: 'getopt', options: ['-s', '--set'] },
  curl: {
    style: 'getopt',
    options: ['-o', '--output', '-O', '--remote-name', '--remote-name-all', '-T', '--upload-file', '-K', '--config', '-D', '--dump-header', '-c', '--cookie-jar', '--trace', '--trace-ascii', '--libcurl', '--output-dir'],
  },
  wget: { style: 'getopt', options: ['-O', '--output-document', '-o', '--output-file', '-P', '--directory-prefix', '--post-file', '-i', '--input-file', '-e', '--execute'] },
  rsync: { style: 'getopt', options: ['-e', '--rsh', '--rsync-path'] },
  zip: { style: 'getopt', options: ['-TT', '--unzip-command'] },
  jq: { style: 'getopt', options: [] },
};

function hits(table: DangerousOptionTable, option: string, word: string): boolean {
  if (table.style === 'exact') return word === option;
  if (option.startsWith('--')) {
    if (!word.startsWith('--')) return false;
    const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
    // getopt_long and git accept any unambiguous prefix of a long option.
    return name.length > 2 && option.toLowerCase().startsWith(name.toLowerCase()) && (name.length > 3 || name === option);
  }
  if (option.length > 2) return word === option || word.startsWith(option);
  // A short option alone, glued to its value (`-ofile`) or in a cluster (`-ni`).
  return word.startsWith('-') && !word.startsWith('--') && word.slice(1).includes(option.slice(1));
}

/**
 * The first writing or executing option of `words` per {@link DANGEROUS_OPTIONS} (for `sed`,
 * also a script using its `e`, `w`, `W`, `r`, `R` commands or the `e`/`w` flags of `s`), or
 * `null`. Words after `--` are operands.
 */
export function dangerousOptionOf(words: readonly string[]): string | null {
  const first = words[0];
  if (first === undefined) return null;
  const name = first.slice(first.lastIndexOf('/') + 1).toLowerCase();
  const table = Object.hasOwn(DANGEROUS_OPTIONS, name) ? DANGEROUS_OPTIONS[name] : undefined;
  if (table === undefined) return null;
  let leading = true;
  for (const word of words.slice(1)) {
    if (word === '--' && table.style === 'getopt') break;
    if (!word.startsWith('-')) leading = false;
    if (leading) for (const option of table.leadingOptions ?? []) if (word === option || word.startsWith(`${option}=`) || (option.length === 2 && word.startsWith(option))) return option;
    for (const option of table.options) if (hits(table, option, word)) return option;
  }
  if (name === 'sed') return dangerousSedScript(words.slice(1));
  return null;
}

const SED_VALUE_OPTIONS: ReadonlySet<string> = new Set(['-l', '--line-length']);

/** The sed scripts of an argv: every `-e` value, else the first operand. */
function sedScripts(args: readonly string[]): string[] {
  const scripts: string[] = [];
  let operand: string | undefined;
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] as string;
    if (word === '-e' || word === '--expression') {
      scripts.push(args[index + 1] ?? '');
      index += 1;
    } else if (word.startsWith('--expression=')) scripts.push(word.slice('--expression='.length));
    else if (/^-[a-zA-Z]*e./.test(word)) scripts.push(word.slice(word.indexOf('e') + 1));
    else if (/^-[a-zA-Z]*e$/.test(word)) {
      scripts.push(args[index + 1] ?? '');
      index += 1;
    } else if (SED_VALUE_OPTIONS.has(word)) index += 1;
    else if (!word.startsWith('-') && operand === undefined) operand = word;
  }
  if (scripts.length === 0 && operand !== undefined) scripts.push(operand);
  return scripts;
}

// Commands that only read, print or edit the pattern space. Anything else (e, w, W, r, R, and
// what this scanner does not understand) is treated as writing or executing.
const SAFE_SED_COMMANDS = new Set(['p', 'P', 'd', 'D', 'q', 'Q', 'n', 'N', '=', 'l', 'g', 'G', 'h', 'H', 'x', 'z', '{', '}', '#', 'a', 'i', 'c', 'y', 'b', 't', 'T', ':', 'F', 'v']);

function dangerousSedScript(args: readonly string[]): string | null {
  for (const script of sedScripts(args)) {
    // Naive split on ; and newlines: a split inside a regex can only make a piece look unknown
    // (and so dangerous), never hide a command.
    for (const raw of script.split(/[;\n]/)) {
      const piece = raw.replace(/^[\s\d$,!~+]*(\/(?:\\.|[^/])*\/[IM]*)?[\s\d$,!~+]*(\/(?:\\.|[^/])*\/[IM]*)?[\s!]*/, '');
      if (piece.length === 0) continue;
      const command = piece[0] as string;
      if (command === 's') {
        const delimiter = piece[1];
        if (delimiter === undefined) return 'sed s';
        const parts = piece.slice(2).split(delimiter);
        const flags = parts.length >= 3 ? parts.slice(2).join(delimiter) : '';
        if (/[ewW]/.test(flags)) return `sed s///${flags}`;
        continue;
      }
      if (!SAFE_SED_COMMANDS.has(command)) return `sed ${command}`;
    }
  }
  return null;
}
