import { CodeError } from '../errors/code-error.js';
import type { PermissionTarget } from '../tools/tool.js';
import type { CommandPattern } from './command-pattern.js';
import { parsePermissionRule } from './permission-rule.js';
import type { PermissionRule } from './permission-rule.js';
import { analyzeShellCommand } from './shell-command-parser.js';
import type { ShellSubCommand } from './shell-command-parser.js';
import { dangerousOptionOf } from './dangerous-options.js';
import { describeSource } from './shell-issue.js';
import { evaluateUrl } from './permission-url.js';

/** What a permission check concludes for one call. */
export type PermissionDecisionValue = 'allow' | 'ask' | 'deny';

/**
 * Which tool calls run without asking, need a human's confirmation, or are refused. Rules look
 * like `read`, `bash*`, `mcp__github__*`, `bash(git log*)`, `write(**\/.env*)`.
 */
export interface PermissionPolicy {
  /** Rules that let a call run without confirmation. Default: none. */
  readonly allow?: readonly string[];
  /** Rules that require a confirmation. Default: none. */
  readonly ask?: readonly string[];
  /** Rules that refuse a call. Default: none. */
  readonly deny?: readonly string[];
  /** The decision when no rule decides. Default: `'ask'`. */
  readonly defaultDecision?: PermissionDecisionValue;
}

/** The result of {@link evaluatePermission}. */
export interface PermissionDecision {
  readonly decision: PermissionDecisionValue;
  /** The rule that decided, when one did (absent for default decisions and fail-closed asks). */
  readonly rule?: string;
  /** Why, for humans: e.g. "command substitution `$(id)` is not provably simple". */
  readonly reason: string;
}

/** One call to judge: the tool and what its rule specifiers match against. */
export interface PermissionRequest {
  readonly toolName: string;
  /** For `paths`, the kernel passes workspace-relative paths already resolved by the backend. */
  readonly target: PermissionTarget;
}

interface ToolRules {
  readonly allow: readonly PermissionRule[];
  readonly ask: readonly PermissionRule[];
  readonly deny: readonly PermissionRule[];
}

const GATES = ['deny', 'ask'] as const;

/**
 * Judges one tool call. Deny beats ask beats allow: when several rules match, the strictest wins.
 * - A bare rule (`bash`, `bash*`) matches every call of its tools.
 * - `command` targets are analysed with a shell grammar: deny and ask rules are tried against
 *   EVERY sub-command, including those extracted from substitutions and wrappers (`sudo rm`),
 *   with the command name also tried by basename and lower-cased (`/bin/rm`, `RM`). An allow rule
 *   with a specifier allows only a provably simple command whose every sub-command matches an
 *   allow rule; a command that is not provably simple is at best `ask` — also under a bare allow
 *   or an `allow` default, whenever deny or ask rules with specifiers exist that it could dodge.
 * - `paths` targets: deny and ask rules fire if any path matches (case-insensitively); allow
 *   rules must cover every path.
 * - A command nested past the analyser's limit (`MAX_SHELL_NESTING_DEPTH`) is denied
 *   whatever the rules: what it runs cannot be seen.
 * - Rules with a specifier never match a `none` target. Nothing matches -> `defaultDecision`.
 *
 * @throws CodeError SESSION_CONFIGURATION_ERROR for an invalid rule (see {@link validatePermissionPolicy}).
 *
 * @example
 * const policy = validatePermissionPolicy({ allow: ['bash(git log*)'], deny: ['bash(rm*)'] });
 * evaluatePermission(policy, { toolName: 'bash', target: { kind: 'command', command: 'git log -5' } });
 * // { decision: 'allow', rule: 'bash(git log*)', reason: 'every sub-command matches an allow rule ("bash(git log*)")' }
 * evaluatePermission(policy, { toolName: 'bash', target: { kind: 'command', command: 'git log $(rm -rf ~)' } });
 * // { decision: 'deny', rule: 'bash(rm*)', reason: 'sub-command "rm -rf ~" matches deny rule "bash(rm*)"' }
 */
export function evaluatePermission(policy: PermissionPolicy, request: PermissionRequest): PermissionDecision {
  const rules: ToolRules = {
    allow: rulesFor(policy.allow, request.toolName),
    ask: rulesFor(policy.ask, request.toolName),
    deny: rulesFor(policy.deny, request.toolName),
  };
  const fallback = policy.defaultDecision ?? 'ask';
  const target = request.target;
  if (target.kind === 'command') return evaluateCommand(rules, request.toolName, target.command, fallback);
  if (target.kind === 'paths') return evaluatePaths(rules, request.toolName, target.paths, fallback);
  if (target.kind === 'url') return evaluateUrl(rules, request.toolName, target, fallback);
  for (const gate of GATES) {
    const bare = rules[gate].find((rule) => rule.specifier === null);
    if (bare !== undefined) return bareDecision(gate, bare, request.toolName);
  }
  const bareAllow = rules.allow.find((rule) => rule.specifier === null);
  if (bareAllow !== undefined) return bareDecision('allow', bareAllow, request.toolName);
  return { decision: fallback, reason: `no rule matches this ${request.toolName} call; the default decision is ${fallback}` };
}

const STRICTNESS: Readonly<Record<PermissionDecisionValue, number>> = { allow: 0, ask: 1, deny: 2 };

/**
 * Judges one call against several policies at once: the strictest decision of all wins (deny >
 * ask > allow), so no policy of the list can be widened by another. This is how a child session
 * obeys every ancestor and how a session opened from an agent directory obeys the host's policy.
 * `label(i)` prefixes the reason of a decision taken by `policies[i]` (i >= 1); a `null` policy
 * allows everything (no policy configured).
 */
export function strictestPermission(policies: readonly (PermissionPolicy | null)[], request: PermissionRequest, label: (index: number) => string = () => 'parent session policy'): PermissionDecision {
  let decision: PermissionDecision | undefined;
  for (const [index, policy] of policies.entries()) {
    if (decision?.decision === 'deny') break;
    const next = policy === null ? NO_POLICY : evaluatePermission(policy, request);
    if (decision === undefined) decision = next;
    else if (STRICTNESS[next.decision] > STRICTNESS[decision.decision]) decision = { ...next, reason: `${label(index)}: ${next.reason}` };
  }
  return decision ?? NO_POLICY;
}

const NO_POLICY: PermissionDecision = Object.freeze({ decision: 'allow', reason: 'no permission policy configured' });

/** A permission block as configured: rules plus the `enabled` switch of the session option. */
export interface PermissionPolicyBlock extends PermissionPolicy {
  /** false = no policy at all (every call allowed). Default true. */
  readonly enabled?: boolean;
}

/**
 * Merges a permission block from a less trusted source (`overlay`: an agent directory's
 * `agent.acl`) over a host's (`base`) strictest-wins: deny lists union, ask lists union, the
 * stricter default decision; an overlay can neither disable the policy nor add allow rules to
 * a base that has its own (the base's allow list is kept; an overlay narrows with deny, ask and
 * its default).
 * Callers that need the exact "strictest of both" also evaluate the base with
 * {@link strictestPermission}. No base (or a disabled one): the overlay as it is.
 */
export function mergePermissionPolicies(base: PermissionPolicyBlock | undefined, overlay: PermissionPolicyBlock | undefined): PermissionPolicyBlock | undefined {
  if (overlay === undefined) return base;
  if (base === undefined || base.enabled === false) return overlay;
  const union = (a: readonly string[] | undefined, b: readonly string[] | undefined): string[] | undefined => (a === undefined && b === undefined ? undefined : [...new Set([...(a ?? []), ...(b ?? [])])]);
  const deny = union(base.deny, overlay.enabled === false ? undefined : overlay.deny);
  const ask = union(base.ask, overlay.enabled === false ? undefined : overlay.ask);
  const allow = base.allow ?? (overlay.enabled === false ? undefined : overlay.allow);
  const baseDefault = base.defaultDecision ?? 'ask';
  const overlayDefault = overlay.enabled === false ? baseDefault : (overlay.defaultDecision ?? 'ask');
  const defaultDecision = STRICTNESS[overlayDefault] > STRICTNESS[baseDefault] ? overlayDefault : baseDefault;
  return {
    ...(allow === undefined ? {} : { allow }),
    ...(ask === undefined ? {} : { ask }),
    ...(deny === undefined ? {} : { deny }),
    defaultDecision,
  };
}

function evaluateCommand(rules: ToolRules, toolName: string, command: string, fallback: PermissionDecisionValue): PermissionDecision {
  const analysis = analyzeShellCommand(command);
  // Past the analyser's limit nothing inside is seen, so no deny rule can be ruled out and an
  // ask would let auto-approval (a yolo lane, --yes) run it: the answer is deny, whatever the rules.
  const limit = analysis.issues.find((issue) => issue.kind === 'nesting_limit');
  if (limit !== undefined) return { decision: 'deny', reason: `${limit.detail}: the command cannot be analysed, so it is denied` };
  for (const gate of GATES) {
    for (const rule of rules[gate]) {
      if (rule.command === null) return bareDecision(gate, rule, toolName);
      const pattern = rule.command;
      const hit = analysis.guardCommands.find((sub) => matchesLeniently(pattern, sub.words));
      if (hit !== undefined) {
        return { decision: gate, rule: rule.source, reason: `sub-command "${show(hit)}" matches ${gate} rule "${rule.source}"` };
      }
    }
  }
  const bareAllow = rules.allow.find((rule) => rule.specifier === null);
  // All bare gate rules returned above, so any left here have a specifier a command could dodge.
  const guarded = rules.deny.length + rules.ask.length > 0;
  const topLevel = analysis.commands.filter((sub) => !sub.nested);
  const coverage = allowCoverage(rules.allow, topLevel);
  if (!analysis.simple) {
    const why = `${analysis.issues[0]?.detail ?? 'the command'} is not provably simple`;
    if (bareAllow !== undefined && !guarded) return bareDecision('allow', bareAllow, toolName);
    if (bareAllow !== undefined) return { decision: 'ask', reason: `${why}, so the deny and ask rules for ${toolName} cannot be ruled out` };
    if (coverage.uncovered === null && topLevel.length > 0) {
      return { decision: 'ask', reason: `${why}; allow rule "${coverage.rules[0]}" only allows provably simple commands` };
    }
    return defaultDecision(fallback, guarded, why);
  }
  if (coverage.uncovered === null && topLevel.length > 0) {
    const rule = coverage.rules[0] as string;
    const all = coverage.rules.map((source) => `"${source}"`).join(', ');
    return { decision: 'allow', rule, reason: `every sub-command matches an allow rule (${all})` };
  }
  if (bareAllow !== undefined) return bareDecision('allow', bareAllow, toolName);
  const why =
    coverage.uncovered === null
      ? 'the command is empty'
      : coverage.option !== undefined
        ? `sub-command "${show(coverage.uncovered)}" uses ${coverage.option}, which writes files or runs programs and no allow rule names`
        : `sub-command "${show(coverage.uncovered)}" matches no allow rule`;
  return defaultDecision(fallback, false, why);
}

function evaluatePaths(rules: ToolRules, toolName: string, paths: readonly string[], fallback: PermissionDecisionValue): PermissionDecision {
  for (const gate of GATES) {
    for (const rule of rules[gate]) {
      if (rule.paths === null) return bareDecision(gate, rule, toolName);
      const glob = rule.paths;
      const hit = paths.find((path) => glob.matches(path, { caseInsensitive: true }));
      if (hit !== undefined) {
        return { decision: gate, rule: rule.source, reason: `path "${describeSource(hit)}" matches ${gate} rule "${rule.source}"` };
      }
    }
  }
  const matched: string[] = [];
  const uncovered = paths.find((path) => {
    const rule = rules.allow.find((candidate) => candidate.paths?.matches(path) === true);
    if (rule !== undefined && !matched.includes(rule.source)) matched.push(rule.source);
    return rule === undefined;
  });
  if (paths.length > 0 && uncovered === undefined) {
    const all = matched.map((source) => `"${source}"`).join(', ');
    return { decision: 'allow', rule: matched[0] as string, reason: `every path matches an allow rule (${all})` };
  }
  const bareAllow = rules.allow.find((rule) => rule.specifier === null);
  if (bareAllow !== undefined) return bareDecision('allow', bareAllow, toolName);
  const why = uncovered === undefined ? 'the call names no path' : `path "${describeSource(uncovered)}" matches no allow rule`;
  return defaultDecision(fallback, false, why);
}

/**
 * Which allow rules cover the sub-commands, and the first sub-command none covers. A rule does not
 * cover a writing or executing option of a read-only-looking program (`git log --output=`,
 * `find -delete`, `sed '1e cmd'`, see `DANGEROUS_OPTIONS`) unless the rule names that option.
 */
function allowCoverage(allow: readonly PermissionRule[], commands: readonly ShellSubCommand[]): { rules: string[]; uncovered: ShellSubCommand | null; option?: string } {
  const rules: string[] = [];
  for (const sub of commands) {
    const rule = allow.find((candidate) => candidate.command?.matches(sub.words) === true);
    if (rule === undefined) return { rules, uncovered: sub };
    const option = dangerousOptionOf(sub.words);
    if (option !== null && !rule.source.includes(option)) return { rules, uncovered: sub, option };
    if (!rules.includes(rule.source)) rules.push(rule.source);
  }
  return { rules, uncovered: null };
}

/**
 * Deny and ask rules also try the command name by basename and lower-cased, so `/bin/rm` and
 * `RM` (the same program on a case-insensitive disk) cannot slip past `bash(rm*)`.
 */
function matchesLeniently(pattern: CommandPattern, words: readonly string[]): boolean {
  if (pattern.matches(words)) return true;
  const name = words[0];
  if (name === undefined) return false;
  const rest = words.slice(1);
  const base = name.slice(name.lastIndexOf('/') + 1);
  for (const variant of new Set([base, name.toLowerCase(), base.toLowerCase()])) {
    if (variant !== name && pattern.matches([variant, ...rest])) return true;
  }
  return false;
}

function bareDecision(decision: PermissionDecisionValue, rule: PermissionRule, toolName: string): PermissionDecision {
  return { decision, rule: rule.source, reason: `rule "${rule.source}" ${decision === 'allow' ? 'allows' : decision === 'ask' ? 'asks for' : 'denies'} every ${toolName} call` };
}

function defaultDecision(fallback: PermissionDecisionValue, failClosed: boolean, why: string): PermissionDecision {
  if (fallback === 'allow' && failClosed) {
    return { decision: 'ask', reason: `${why}, so the default decision allow does not apply while deny or ask rules could be dodged` };
  }
  return { decision: fallback, reason: `${why}; the default decision is ${fallback}` };
}

function show(sub: ShellSubCommand): string {
  return describeSource(sub.words.join(' '));
}

const RULE_CACHE = new Map<string, PermissionRule>();
const RULE_CACHE_LIMIT = 1024;

function rulesFor(sources: readonly string[] | undefined, toolName: string): PermissionRule[] {
  if (sources === undefined) return [];
  return sources.map(compiledRule).filter((rule) => rule.matchesTool(toolName));
}

// Rules are parsed once per distinct string, so a policy object can be passed on every call (and
// even mutated between calls) without re-parsing or stale results.
function compiledRule(source: string): PermissionRule {
  const cached = RULE_CACHE.get(source);
  if (cached !== undefined) return cached;
  const rule = parsePermissionRule(source);
  if (RULE_CACHE.size >= RULE_CACHE_LIMIT) RULE_CACHE.clear();
  RULE_CACHE.set(source, rule);
  return rule;
}

const DECISIONS: readonly string[] = ['allow', 'ask', 'deny'];
const FIELDS: readonly string[] = ['allow', 'ask', 'deny', 'defaultDecision'];

/**
 * Checks a permission policy coming from configuration and returns a frozen copy.
 *
 * @throws CodeError SESSION_CONFIGURATION_ERROR naming the bad field or rule in
 *   `details.field` (e.g. `permissionPolicy.deny[1]`), with `details.rule` and `details.reason`.
 */
export function validatePermissionPolicy(value: unknown): PermissionPolicy {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw policyError('permissionPolicy', 'must be an object with optional allow, ask, deny and defaultDecision');
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!FIELDS.includes(key)) throw policyError(`permissionPolicy.${key}`, 'unknown field (expected allow, ask, deny or defaultDecision)');
  }
  const lists: Partial<Record<'allow' | 'ask' | 'deny', readonly string[]>> = {};
  for (const name of ['allow', 'ask', 'deny'] as const) {
    const rules = record[name];
    if (rules === undefined) continue;
    if (!Array.isArray(rules)) throw policyError(`permissionPolicy.${name}`, 'must be an array of rule strings');
    rules.forEach((rule: unknown, index) => {
      const field = `permissionPolicy.${name}[${index}]`;
      if (typeof rule !== 'string') throw policyError(field, 'a rule must be a string');
      try {
        compiledRule(rule);
      } catch (error) {
        if (!CodeError.isInstance(error)) throw error;
        throw policyError(field, String(error.details['reason']), rule, error);
      }
    });
    lists[name] = Object.freeze([...(rules as string[])]);
  }
  const fallback = record['defaultDecision'];
  if (fallback !== undefined && (typeof fallback !== 'string' || !DECISIONS.includes(fallback))) {
    throw policyError('permissionPolicy.defaultDecision', 'must be "allow", "ask" or "deny"');
  }
  return Object.freeze({
    ...(lists.allow !== undefined ? { allow: lists.allow } : {}),
    ...(lists.ask !== undefined ? { ask: lists.ask } : {}),
    ...(lists.deny !== undefined ? { deny: lists.deny } : {}),
    ...(fallback !== undefined ? { defaultDecision: fallback as PermissionDecisionValue } : {}),
  });
}

function policyError(field: string, reason: string, rule?: string, cause?: unknown): CodeError {
  const subject = rule === undefined ? field : `${field} "${rule}"`;
  return new CodeError('SESSION_CONFIGURATION_ERROR', `invalid ${subject}: ${reason}`, {
    details: { field, reason, ...(rule !== undefined ? { rule } : {}) },
    ...(cause !== undefined ? { cause } : {}),
  });
}
