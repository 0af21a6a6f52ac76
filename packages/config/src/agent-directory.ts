import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { CodeError } from '@a3s-lab/code-core';
import { requireOnce } from '@a3s-lab/code-core/util';
import { createRequire } from 'node:module';

// yaml and cron-parser load on the first agent directory (synchronously, through require), so
// importing the package pays for neither.
const requireHere = createRequire(import.meta.url);
const yamlModule = requireOnce<typeof import('yaml')>(requireHere, 'yaml');
const cronModule = requireOnce<typeof import('cron-parser')>(requireHere, 'cron-parser');
function parseYaml(text: string): unknown {
  return yamlModule().parse(text);
}
function cronParser(): typeof import('cron-parser').CronExpressionParser {
  return cronModule().CronExpressionParser;
}

/** A schedule of an agent directory: fire `prompt` on `cron` (UTC). */
export interface AgentSchedule {
  readonly name: string;
  /** 5 fields (minute precision) or 6 (seconds first), evaluated in UTC. */
  readonly cron: string;
  readonly enabled: boolean;
  readonly prompt: string;
  /**
   * Occurrences that came due while no host served the schedule: `skip` (default), `once` (the most
   * recent), `all` (each, at most `missedLimit`). Only a fleet (`serveAgentDir(..., { fleet })`) catches up.
   */
  readonly missed: 'skip' | 'once' | 'all';
  /** Cap of `missed: all` (frontmatter `missed_limit`, 1-1000, default 10); absent otherwise. */
  readonly missedLimit?: number;
  readonly file: string;
}

/** A `kind: script` tool: a PTC program (read at load) run through the kernel. */
export interface AgentScriptTool {
  readonly kind: 'script';
  readonly name: string;
  readonly description: string;
  /** The program's source (from `path`, relative to the directory). */
  readonly source: string;
  readonly path: string;
  readonly allowedTools: readonly string[];
  readonly limits: Readonly<Record<string, number>>;
  /** JSON Schema of the tool's arguments (`parameters` in the frontmatter); default any object. */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly file: string;
}

/** A `kind: mcp` tool source: an MCP server whose tools join the session. */
export interface AgentMcpTool {
  readonly kind: 'mcp';
  readonly name: string;
  readonly transport: 'stdio' | 'http' | 'streamable-http';
  readonly command?: string;
  readonly args: readonly string[];
  readonly url?: string;
  readonly env: Readonly<Record<string, string>>;
  readonly file: string;
}

/** A Markdown skill (`skills/*.md`). */
export interface AgentSkillFile {
  readonly name: string;
  readonly description: string;
  /** `allowed-tools`; absent = the skill grants no tools. */
  readonly allowedTools: readonly string[];
  readonly tags: readonly string[];
  readonly body: string;
  readonly file: string;
}

/** A loaded agent directory. */
export interface AgentDirectory {
  readonly dir: string;
  readonly name: string;
  readonly instructions: string;
  /** `agent.acl` text when present (merged over the agent's configuration). */
  readonly aclFile?: string;
  readonly schedules: readonly AgentSchedule[];
  readonly tools: readonly (AgentScriptTool | AgentMcpTool)[];
  readonly skills: readonly AgentSkillFile[];
}

const SCHEDULE_NAME = /^[A-Za-z0-9._@-]{1,100}$/;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Loads an agent directory: `instructions.md` (required), optional `agent.acl`, `skills/*.md`,
 * `schedules/*.md` (frontmatter `cron`, `name`, `enabled`; body = the prompt) and `tools/*.md`
 * (`kind: script` {path, allowed_tools, limits, parameters?} | `kind: mcp` {transport, command,
 * args, env, url}). Every problem is a CONFIG_ERROR naming the file (and line when the
 * frontmatter says where): missing instructions, bad cron, duplicate names, paths escaping the
 * directory, unknown tool kinds, symlinks leading out.
 */
export function loadAgentDirectory(directory: string): AgentDirectory {
  const dir = realDirectory(directory);
  const instructionsFile = join(dir, 'instructions.md');
  const instructions = readInside(dir, instructionsFile, 'an agent directory needs instructions.md').trim();
  if (instructions.length === 0) throw configError(instructionsFile, 'instructions.md is empty');
  const aclFile = join(dir, 'agent.acl');
  const schedules = markdownFiles(dir, 'schedules').map((file) => schedule(dir, file));
  const tools = markdownFiles(dir, 'tools').map((file) => toolSpec(dir, file));
  const skills = markdownFiles(dir, 'skills').map((file) => skillFile(dir, file));
  unique(schedules, 'schedule');
  unique(tools, 'tool');
  unique(skills, 'skill');
  return { dir, name: basename(dir), instructions, ...(exists(aclFile) ? { aclFile: inside(dir, aclFile) } : {}), schedules, tools, skills };
}

/** Splits `---\nyaml\n---\nbody`; a file without frontmatter has an empty one. */
export function parseFrontmatter(text: string, file: string): { data: Record<string, unknown>; body: string; bodyLine: number } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (match === null) return { data: {}, body: text, bodyLine: 1 };
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? '');
  } catch (error) {
    const line = (error as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw configError(file, `invalid frontmatter: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, line === undefined ? undefined : line + 1);
  }
  if (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data))) throw configError(file, 'frontmatter must be a mapping', 2);
  return { data: (data ?? {}) as Record<string, unknown>, body: text.slice(match[0].length), bodyLine: match[0].split('\n').length };
}

function schedule(dir: string, file: string): AgentSchedule {
  const { data, body } = parseFrontmatter(readInside(dir, file), file);
  const name = data['name'] ?? basename(file, '.md');
  if (typeof name !== 'string' || !SCHEDULE_NAME.test(name)) throw configError(file, `schedule name must match ${SCHEDULE_NAME}`, lineOf(file, 'name'));
  const cron = data['cron'];
  if (typeof cron !== 'string') throw configError(file, 'schedule needs a cron expression (`cron: "*/5 * * * *"`)', lineOf(file, 'cron'));
  const fields = cron.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6) throw configError(file, `cron must have 5 or 6 fields, got ${fields}: "${cron}"`, lineOf(file, 'cron'));
  try {
    cronParser().parse(cron, { tz: 'UTC', strict: false });
  } catch (error) {
    throw configError(file, `invalid cron "${cron}": ${error instanceof Error ? error.message : String(error)}`, lineOf(file, 'cron'));
  }
  const enabled = data['enabled'] ?? true;
  if (typeof enabled !== 'boolean') throw configError(file, '`enabled` must be true or false', lineOf(file, 'enabled'));
  const prompt = body.trim();
  if (prompt.length === 0) throw configError(file, 'the schedule body (its prompt) is empty');
  const missed = data['missed'] ?? 'skip';
  if (missed !== 'skip' && missed !== 'once' && missed !== 'all') throw configError(file, `\`missed\` must be skip, once or all, got ${JSON.stringify(missed)}`, lineOf(file, 'missed'));
  const limit = data['missed_limit'];
  if (limit !== undefined && missed !== 'all') throw configError(file, '`missed_limit` applies to `missed: all` only', lineOf(file, 'missed_limit'));
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1 || limit > 1000)) throw configError(file, '`missed_limit` must be an integer from 1 to 1000', lineOf(file, 'missed_limit'));
  return { name, cron: cron.trim(), enabled, prompt, missed, ...(missed === 'all' ? { missedLimit: limit ?? 10 } : {}), file };
}

function toolSpec(dir: string, file: string): AgentScriptTool | AgentMcpTool {
  const { data, body } = parseFrontmatter(readInside(dir, file), file);
  const name = data['name'] ?? basename(file, '.md');
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) throw configError(file, `tool name must match ${TOOL_NAME}`, lineOf(file, 'name'));
  const kind = data['kind'];
  if (kind === 'script') {
    const path = data['path'];
    if (typeof path !== 'string' || path.length === 0) throw configError(file, 'a script tool needs `path` (a .js or .mjs file in the directory)', lineOf(file, 'path'));
    if (!/\.(m?js)$/.test(path)) throw configError(file, `script path must end in .js or .mjs: ${path}`, lineOf(file, 'path'));
    const scriptFile = resolve(dir, path);
    const source = readInside(dir, scriptFile, `script not found: ${path}`, file);
    const allowed = data['allowed_tools'] ?? [];
    if (!Array.isArray(allowed) || !allowed.every((t) => typeof t === 'string')) throw configError(file, '`allowed_tools` must be a list of tool names', lineOf(file, 'allowed_tools'));
    const limits = data['limits'] ?? {};
    if (typeof limits !== 'object' || limits === null || Array.isArray(limits) || !Object.entries(limits).every(([k, v]) => ['timeoutMs', 'maxToolCalls', 'maxOutputBytes'].includes(k) && typeof v === 'number')) {
      throw configError(file, '`limits` takes numbers for timeoutMs, maxToolCalls and maxOutputBytes', lineOf(file, 'limits'));
    }
    const parameters = data['parameters'] ?? { type: 'object', additionalProperties: true };
    if (typeof parameters !== 'object' || parameters === null || (parameters as Record<string, unknown>)['type'] !== 'object') throw configError(file, '`parameters` must be a JSON Schema with type: object', lineOf(file, 'parameters'));
    const description = typeof data['description'] === 'string' ? data['description'] : body.trim();
    return { kind, name, description: description || `Runs ${path}.`, source, path: inside(dir, scriptFile), allowedTools: allowed as string[], limits: limits as Record<string, number>, parameters: parameters as Record<string, unknown>, file };
  }
  if (kind === 'mcp') {
    const transport = data['transport'] ?? 'stdio';
    if (transport !== 'stdio' && transport !== 'http' && transport !== 'streamable-http') throw configError(file, '`transport` must be stdio, http or streamable-http', lineOf(file, 'transport'));
    const args = data['args'] ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw configError(file, '`args` must be a list of strings', lineOf(file, 'args'));
    const env = data['env'] ?? {};
    if (typeof env !== 'object' || env === null || Array.isArray(env) || !Object.values(env).every((v) => typeof v === 'string')) throw configError(file, '`env` must map names to strings', lineOf(file, 'env'));
    if (transport === 'stdio' && typeof data['command'] !== 'string') throw configError(file, 'a stdio MCP tool needs `command`', lineOf(file, 'command'));
    if (transport !== 'stdio' && typeof data['url'] !== 'string') throw configError(file, `an ${transport} MCP tool needs \`url\``, lineOf(file, 'url'));
    return {
      kind,
      name,
      transport,
      ...(typeof data['command'] === 'string' ? { command: data['command'] } : {}),
      args: args as string[],
      ...(typeof data['url'] === 'string' ? { url: data['url'] } : {}),
      env: env as Record<string, string>,
      file,
    };
  }
  throw configError(file, `unknown tool kind ${JSON.stringify(kind ?? null)}: use script or mcp`, lineOf(file, 'kind'));
}

function skillFile(dir: string, file: string): AgentSkillFile {
  const { data, body } = parseFrontmatter(readInside(dir, file), file);
  return parseSkill(data, body, file);
}

/** Builds a skill from frontmatter and body (also used for `skillDirs`). */
export function parseSkill(data: Record<string, unknown>, body: string, file: string): AgentSkillFile {
  const name = data['name'] ?? basename(file, '.md');
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) throw configError(file, `skill name must match ${TOOL_NAME}`, lineOf(file, 'name'));
  const description = data['description'];
  if (typeof description !== 'string' || description.length === 0) throw configError(file, 'a skill needs a description', lineOf(file, 'description'));
  const allowed = data['allowed-tools'] ?? [];
  const allowedTools = typeof allowed === 'string' ? allowed.split(',').map((t) => t.trim()).filter(Boolean) : allowed;
  if (!Array.isArray(allowedTools) || !allowedTools.every((t) => typeof t === 'string')) throw configError(file, '`allowed-tools` must be a list of tool names', lineOf(file, 'allowed-tools'));
  const tags = data['tags'] ?? [];
  if (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string')) throw configError(file, '`tags` must be a list of strings', lineOf(file, 'tags'));
  if (body.trim().length === 0) throw configError(file, 'the skill body is empty');
  return { name, description, allowedTools: allowedTools as string[], tags: tags as string[], body: body.trim(), file };
}

function markdownFiles(dir: string, sub: string): string[] {
  const folder = join(dir, sub);
  if (!exists(folder)) return [];
  inside(dir, folder);
  return readdirSync(folder)
    .filter((name) => name.endsWith('.md') && !name.startsWith('.'))
    .sort()
    .map((name) => join(folder, name));
}

function realDirectory(directory: string): string {
  try {
    const real = realpathSync(resolve(directory));
    if (!lstatSync(real).isDirectory()) throw configError(real, 'not a directory');
    return real;
  } catch (error) {
    if (CodeError.isInstance(error)) throw error;
    throw configError(resolve(directory), 'agent directory not found');
  }
}

/** The real path of `path`, refused (CONFIG_ERROR naming `file`) when it leads outside `dir`. */
function inside(dir: string, path: string, file = path): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw configError(file, `not found: ${relative(dir, path) || path}`);
  }
  if (real !== dir && !real.startsWith(dir + sep)) throw configError(file, `path escapes the agent directory: ${relative(dir, path)}`);
  return real;
}

function readInside(dir: string, path: string, missing = 'file not found', file = path): string {
  if (!exists(path)) throw configError(file === path ? path : file, missing);
  return readFileSync(inside(dir, path, file), 'utf8');
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function unique(items: readonly { readonly name: string; readonly file: string }[], what: string): void {
  const seen = new Map<string, string>();
  for (const item of items) {
    const previous = seen.get(item.name);
    if (previous !== undefined) throw configError(item.file, `duplicate ${what} name '${item.name}' (also in ${previous})`);
    seen.set(item.name, item.file);
  }
}

/** The 1-based line of `key:` in the file's frontmatter, for messages. */
function lineOf(file: string, key: string): number | undefined {
  try {
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.startsWith(`${key}:`));
    return at === -1 ? undefined : at + 1;
  } catch {
    return undefined;
  }
}

function configError(file: string, message: string, line?: number): CodeError {
  return new CodeError('CONFIG_ERROR', `${file}${line === undefined ? '' : `:${line}`}: ${message}`, { details: { file, ...(line === undefined ? {} : { line }) } });
}
