/**
 * Workspace-relative glob patterns of the agent's own configuration, hook and MCP files. Writes,
 * deletes and renames of these paths (including creating them when absent) are refused, so nothing
 * inside the workspace can widen the agent's policy. `**` matches any depth; matching is
 * case-insensitive so a case-insensitive filesystem cannot be used to sneak past it.
 *
 * - `agent.acl` — the agent config at the workspace root
 * - `.a3s/*.acl` — config files (`.a3s/config.acl` ...)
 * - `.a3s/hooks`, `.a3s/hooks/**` — hook definitions
 * - `.a3s/mcp*.json` — MCP server configuration
 * - `.a3s/tools/**`, `.a3s/agents/**` — agent-directory tool (MCP/script) and worker definitions
 * - `.mcp.json` — project MCP configuration
 * - `.git/hooks`, `.git/hooks/**` — git hooks (run code on the next git command)
 * - `.git/config` — can set `core.hooksPath` / `core.fsmonitor`, which run code too
 * - `.git` itself — a `.git` FILE (`gitdir: elsewhere`) would point git at a config and hooks
 *   the agent wrote anywhere in the workspace
 * - `.git/commondir`, `.git/config.worktree` and, below `.git/` (submodules in `modules/`,
 *   linked worktrees in `worktrees/`), every `config`, `config.worktree`, `commondir` and
 *   `hooks` — the other places git reads configuration or hooks from
 * - hook managers' directories and configs, which `core.hooksPath` points at or which install
 *   hooks the user's next commit runs: `.husky/**`, `.githooks/**`, `.lefthook/**`,
 *   `lefthook*.yml`, `.pre-commit-config.yaml`, `.overcommit.yml`, `.simple-git-hooks.*`
 *   (the repository's configured `core.hooksPath` itself is protected too, see
 *   `configuredHooksPath`)
 */
export const PROTECTED_WRITE_PATTERNS: readonly string[] = Object.freeze([
  'agent.acl',
  '.a3s/*.acl',
  '.a3s/hooks',
  '.a3s/hooks/**',
  '.a3s/mcp*.json',
  '.a3s/tools',
  '.a3s/tools/**',
  '.a3s/agents',
  '.a3s/agents/**',
  '.mcp.json',
  '.git/hooks',
  '.git/hooks/**',
  '.git/config',
  '.git',
  '.git/commondir',
  '.git/config.worktree',
  '.git/**/config',
  '.git/**/config.worktree',
  '.git/**/commondir',
  '.git/**/hooks',
  '.git/**/hooks/**',
  '.husky',
  '.husky/**',
  '.githooks',
  '.githooks/**',
  '.lefthook',
  '.lefthook/**',
  'lefthook.yml',
  'lefthook.yaml',
  'lefthook.json',
  'lefthook.toml',
  '.lefthook.yml',
  '.lefthook.yaml',
  'lefthook-local.yml',
  'lefthook-local.yaml',
  '.lefthook-local.yml',
  '.lefthook-local.yaml',
  '.pre-commit-config.yaml',
  '.pre-commit-config.yml',
  '.overcommit.yml',
  '.simple-git-hooks.json',
  '.simple-git-hooks.js',
  '.simple-git-hooks.cjs',
  'simple-git-hooks.json',
  'simple-git-hooks.js',
  'simple-git-hooks.cjs',
]);

// One alternation of every pattern: one regular expression to compile and run per path, not one per pattern.
const matcher = new RegExp(`^(?:${PROTECTED_WRITE_PATTERNS.map(patternSource).join('|')})$`, 'i');
// Every pattern's first component is literal: a path whose first component (lower-cased) is none
// of them cannot match, and most paths a tool writes are decided by this lookup alone.
const firstComponents: ReadonlySet<string> | null = PROTECTED_WRITE_PATTERNS.some((pattern) => (pattern.split('/')[0] ?? '').includes('*'))
  ? null
  : new Set(PROTECTED_WRITE_PATTERNS.map((pattern) => (pattern.split('/')[0] ?? '').toLowerCase()));

/** True when the canonical workspace-relative `path` is one of {@link PROTECTED_WRITE_PATTERNS}. */
export function isProtectedPath(path: string): boolean {
  const normalized = path.replace(/^\.\/+/, '').replace(/\/+$/, '');
  const slash = normalized.indexOf('/');
  if (firstComponents !== null && !firstComponents.has((slash === -1 ? normalized : normalized.slice(0, slash)).toLowerCase())) return false;
  return matcher.test(normalized);
}

function patternSource(pattern: string): string {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === '*' && pattern[index + 1] === '*') {
      source += '.*';
      index += 1;
    } else if (char === '*') {
      source += '[^/]*';
    } else {
      source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return source;
}

/**
 * The `core.hooksPath` values set in a git config file's text (`[core] hooksPath = dir`), in
 * order. Section and key names are case-insensitive; quoted values are unquoted.
 */
export function hooksPathsOf(configText: string): string[] {
  const paths: string[] = [];
  let inCore = false;
  for (const rawLine of configText.split(/\r?\n/)) {
    const line = rawLine.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]\s*(.*)$/.exec(line);
    let rest = line;
    if (section !== null) {
      inCore = (section[1] as string).toLowerCase() === 'core';
      rest = section[2] as string;
    }
    if (!inCore) continue;
    const entry = /^hookspath\s*=\s*(.*)$/i.exec(rest);
    if (entry === null) continue;
    let value = (entry[1] as string).replace(/\s[#;].*$/, '').trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (value.length > 0) paths.push(value);
  }
  return paths;
}

/** Names git runs as hooks (githooks(5)). */
const GIT_HOOK_NAMES: ReadonlySet<string> = new Set([
  'applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-commit', 'pre-merge-commit', 'prepare-commit-msg', 'commit-msg',
  'post-commit', 'pre-rebase', 'post-checkout', 'post-merge', 'pre-push', 'pre-receive', 'update', 'proc-receive', 'post-receive',
  'post-update', 'reference-transaction', 'push-to-checkout', 'pre-auto-gc', 'post-rewrite', 'sendemail-validate',
  'fsmonitor-watchman', 'p4-changelist', 'p4-prepare-changelist', 'p4-post-changelist', 'p4-pre-submit', 'post-index-change',
]);

/**
 * True when the workspace-relative `path` is, or is inside, one of the workspace-relative
 * `hooksPaths` (compared case-insensitively, by path components).
 */
export function isInsideHooksPath(path: string, hooksPaths: readonly string[]): boolean {
  const normalized = path.replace(/^\.\/+/, '').replace(/\/+$/, '').toLowerCase();
  return hooksPaths.some((hooks) => {
    const base = hooks.replace(/^\.\/+/, '').replace(/\/+$/, '').toLowerCase();
    // Hooks path = the workspace root: only the hook files themselves, not every file.
    if (base === '' || base === '.') return GIT_HOOK_NAMES.has(normalized);
    return normalized === base || normalized.startsWith(`${base}/`);
  });
}
