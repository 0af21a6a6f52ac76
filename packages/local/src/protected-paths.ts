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
]);

const matchers: readonly RegExp[] = PROTECTED_WRITE_PATTERNS.map(toRegExp);

/** True when the canonical workspace-relative `path` is one of {@link PROTECTED_WRITE_PATTERNS}. */
export function isProtectedPath(path: string): boolean {
  const normalized = path.replace(/^\.\/+/, '').replace(/\/+$/, '');
  return matchers.some((matcher) => matcher.test(normalized));
}

function toRegExp(pattern: string): RegExp {
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
  return new RegExp(`^${source}$`, 'i');
}
