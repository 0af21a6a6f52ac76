import { arithmeticEvaluationIssue } from './shell-evaluating-builtins.js';
import { describeSource, findUnusualCharacter, MAX_SHELL_NESTING_DEPTH } from './shell-issue.js';
import type { ShellIssue } from './shell-issue.js';
import { tokenizeShell } from './shell-tokenizer.js';
import type { ShellToken, ShellTokenization, ShellWordToken } from './shell-tokenizer.js';
import { isWrapperName, unwrapCommand } from './shell-wrappers.js';

/** One simple command found in a command string. */
export interface ShellSubCommand {
  /** Its argv after quote removal; expansions stay as their source text (`$HOME`, `$(id)`). */
  readonly words: readonly string[];
  /**
   * True when it was extracted from inside something else — a `$( )`, backticks, `<( )`, a
   * here-document, the arguments of a wrapper (`sudo rm`) or a script string (`bash -c '...'`).
   */
  readonly nested: boolean;
}

/** What {@link analyzeShellCommand} learned about a command string. */
export interface ShellCommandAnalysis {
  /** The analysed string. */
  readonly command: string;
  /**
   * True when the string is PROVABLY SIMPLE: a list of plain commands joined by `;` `&&` `||`
   * `|` `|&` `&` or newlines, whose argv is exactly `commands[i].words` — no substitution,
   * expansion, redirection, assignment, grouping, control structure, wrapper, parse error or
   * unusual character. Only such a string can be auto-allowed by a rule with a specifier.
   */
  readonly simple: boolean;
  /** Every sub-command: the top-level ones in order, and the nested ones extracted on the way. */
  readonly commands: readonly ShellSubCommand[];
  /** Why the string is not simple (empty when it is), most relevant first. */
  readonly issues: readonly ShellIssue[];
  /**
   * What deny and ask rules are tried against: {@link commands} plus, for wrappers that run the
   * argv after their options, every suffix of their words (an option of unknown arity must not
   * hide `rm` in `prlimit --nofile 5 rm -rf /`). A superset of `commands`; failing closed.
   */
  readonly guardCommands: readonly ShellSubCommand[];
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const IO_NUMBER = /^(\d+|\{[A-Za-z_][A-Za-z0-9_]*\})$/;
const CONNECTORS: ReadonlySet<string> = new Set(['&&', '||', '|', '|&']);
/** Reserved words after which the rest of the simple command is a command again. */
const PREFIX_KEYWORDS: ReadonlySet<string> = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'esac', 'coproc']);
/** Reserved words that start something that is not a command (`for x in ...`, `[[ ... ]]`). */
const HEADER_KEYWORDS: ReadonlySet<string> = new Set(['for', 'select', 'case', 'function', '[[']);

interface AnalysisState {
  readonly commands: ShellSubCommand[];
  readonly issues: ShellIssue[];
  /** Suffix candidates of argv wrappers (see `guardCommands`). */
  readonly candidates: ShellSubCommand[];
  /** Suffixes already explored, so chains of wrappers stay quadratic, not exponential. */
  readonly explored: Set<string>;
}

/** Most suffix candidates explored per command string; past it the analysis hits its limit. */
const MAX_CANDIDATES = 4096;

/**
 * Analyses a bash command string with a real shell grammar (see `tokenizeShell`): splits it into
 * simple sub-commands on `;` `&&` `||` `|` `|&` `&` newline and CR, and decides whether it is
 * provably simple. It also extracts, for deny rules, the commands hidden inside substitutions,
 * here-documents, wrappers (`sudo`, `env`, `timeout 5`, `xargs`, `find -exec`) and script strings
 * (`bash -c`, `eval`, `watch`). Never throws; malformed input is simply not simple.
 *
 * @example
 * analyzeShellCommand('git log --oneline && echo "a; b"')
 * // { simple: true, commands: [{ words: ['git','log','--oneline'] }, { words: ['echo','a; b'] }], ... }
 */
export function analyzeShellCommand(command: string): ShellCommandAnalysis {
  const state: AnalysisState = { commands: [], issues: [], candidates: [], explored: new Set() };
  const unusual = findUnusualCharacter(command);
  if (unusual !== null) state.issues.push({ kind: 'unusual_character', detail: `invisible or unusual character ${unusual}` });
  analyzeSource(command, false, 0, state);
  return { command, simple: state.issues.length === 0, commands: state.commands, issues: state.issues, guardCommands: [...state.commands, ...state.candidates] };
}

function analyzeSource(source: string, nested: boolean, depth: number, state: AnalysisState): void {
  if (depth > MAX_SHELL_NESTING_DEPTH) {
    state.issues.push({ kind: 'nesting_limit', detail: `nesting deeper than ${MAX_SHELL_NESTING_DEPTH} levels` });
    return;
  }
  collect(tokenizeShell(source, depth), nested, depth, state);
}

function collect(tokenization: ShellTokenization, nested: boolean, depth: number, state: AnalysisState): void {
  state.issues.push(...tokenization.issues);
  for (const words of splitSimpleCommands(tokenization.tokens, state.issues)) {
    addSimpleCommand(words, nested, depth, state);
  }
  for (const substitution of tokenization.substitutions) collect(substitution.body, true, depth + 1, state);
}

/**
 * Groups tokens into the word lists of simple commands. Redirections and their targets are
 * dropped from argv (an fd number glued to the operator too); `(` `)` count as separators so
 * the commands inside a subshell are still seen, but are reported.
 */
function splitSimpleCommands(tokens: readonly ShellToken[], issues: ShellIssue[]): ShellWordToken[][] {
  const commands: ShellWordToken[][] = [];
  let words: ShellWordToken[] = [];
  let redirected = false;
  let awaitingTarget = false;
  let parenDepth = 0;
  let afterGroup = false;
  let connector: string | null = null;
  const finish = (): boolean => {
    if (awaitingTarget) issues.push({ kind: 'parse_error', detail: 'redirection without a target' });
    const hadCommand = words.length > 0 || redirected;
    if (words.length > 0) commands.push(words);
    words = [];
    redirected = false;
    awaitingTarget = false;
    return hadCommand;
  };
  for (const token of tokens) {
    if (token.type === 'word') {
      if (awaitingTarget) awaitingTarget = false;
      else words.push(token);
      continue;
    }
    if (token.type === 'redirect') {
      const last = words.at(-1);
      if (last !== undefined && last.end === token.start && IO_NUMBER.test(last.raw)) words.pop();
      redirected = true;
      awaitingTarget = true;
      continue;
    }
    const operator = token.operator;
    const hadCommand = finish() || afterGroup;
    afterGroup = false;
    if (hadCommand) connector = null;
    if (operator === '(') {
      issues.push({ kind: 'subshell', detail: hadCommand ? 'function definition `name()`' : 'subshell `( ... )`' });
      parenDepth += 1;
    } else if (operator === ')') {
      if (parenDepth === 0) issues.push({ kind: 'parse_error', detail: 'unmatched `)`' });
      parenDepth = Math.max(0, parenDepth - 1);
      afterGroup = true;
    } else if (operator === ';;' || operator === ';&' || operator === ';;&') {
      issues.push({ kind: 'control_structure', detail: `case clause terminator \`${operator}\`` });
    } else if (operator !== '\n' && operator !== '\r') {
      if (!hadCommand) issues.push({ kind: 'parse_error', detail: `unexpected \`${operator}\`` });
      connector = CONNECTORS.has(operator) ? operator : null;
    }
  }
  if (!finish() && !afterGroup && connector !== null) {
    issues.push({ kind: 'parse_error', detail: `command ends with \`${connector}\`` });
  }
  if (parenDepth > 0) issues.push({ kind: 'parse_error', detail: 'unclosed `(`' });
  return commands;
}

function addSimpleCommand(words: readonly ShellWordToken[], nested: boolean, depth: number, state: AnalysisState): void {
  let index = 0;
  while (index < words.length) {
    const word = words[index] as ShellWordToken;
    if (ASSIGNMENT.test(word.raw)) {
      state.issues.push({ kind: 'env_assignment', detail: `environment assignment \`${describeSource(word.raw)}\`` });
    } else if (word.quoted) break;
    else if (word.value === '{' || word.value === '}') {
      state.issues.push({ kind: 'group', detail: 'command group `{ ...; }`' });
    } else if (PREFIX_KEYWORDS.has(word.value)) {
      state.issues.push({ kind: 'control_structure', detail: `shell keyword \`${word.value}\`` });
    } else if (HEADER_KEYWORDS.has(word.value)) {
      state.issues.push({ kind: 'control_structure', detail: `shell keyword \`${word.value}\`` });
      return;
    } else break;
    index += 1;
  }
  if (index < words.length) addCommand(words.slice(index).map((word) => word.value), nested, depth, state);
}

function addCommand(words: readonly string[], nested: boolean, depth: number, state: AnalysisState, asCandidate = false): void {
  (asCandidate ? state.candidates : state.commands).push({ words, nested });
  const arithmetic = arithmeticEvaluationIssue(words);
  if (arithmetic !== null) state.issues.push(arithmetic);
  const unwrapped = unwrapCommand(words);
  if (unwrapped === null) return;
  state.issues.push({ kind: 'wrapper_command', detail: `\`${unwrapped.name}\` running its arguments as a command` });
  if (depth >= MAX_SHELL_NESTING_DEPTH) {
    state.issues.push({ kind: 'nesting_limit', detail: `nesting deeper than ${MAX_SHELL_NESTING_DEPTH} levels` });
    return;
  }
  const parsed = new Set<string>();
  for (const inner of unwrapped.inner) {
    if (inner.kind === 'command') {
      parsed.add(inner.words.join('\0'));
      addCommand(inner.words, true, depth + 1, state, asCandidate);
    } else if (inner.kind === 'script') analyzeSource(inner.script, true, depth + 1, state);
  }
  if (unwrapped.argvWrapper === true) addSuffixCandidates(words, parsed, depth, state);
}

function addSuffixCandidates(words: readonly string[], parsed: ReadonlySet<string>, depth: number, state: AnalysisState): void {
  for (let start = 1; start < words.length; start += 1) {
    const suffix = words.slice(start);
    const key = suffix.join('\0');
    if (parsed.has(key) || state.explored.has(key)) continue;
    if (state.explored.size >= MAX_CANDIDATES) {
      state.issues.push({ kind: 'nesting_limit', detail: `more than ${MAX_CANDIDATES} wrapped command candidates` });
      return;
    }
    state.explored.add(key);
    // A suffix that is itself a wrapper is unwrapped too (its own suffixes are candidates).
    if (isWrapperName(suffix[0] as string)) addCommand(suffix, true, depth + 1, state, true);
    else state.candidates.push({ words: suffix, nested: true });
  }
}
