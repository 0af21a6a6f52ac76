import type { AnyTool, JsonSchema, WorkspaceCapabilities } from '@a3s-lab/code-core';
import { canRunInParallel, resolveToolCapabilities } from '@a3s-lab/code-core/kernel';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES, createBuiltinTools, selectToolsForWorkspace } from './builtin-tools.js';
import * as api from './index.js';

const tools = createBuiltinTools();
const byName = (name: string): AnyTool => tools.find((tool) => tool.name === name) as AnyTool;

/** Walks a schema, collecting problems: undocumented properties, open objects, unbounded numbers/arrays. */
/**
 * Every property is documented, except one nested inside an array item that repeats a
 * documented top-level property of the same tool (read's `files[]` entries mirror `file_path`,
 * `offset`, `limit`): describing it twice only costs first-request bytes.
 */
function schemaProblems(schema: JsonSchema, where: string, problems: string[], topLevel: ReadonlySet<string> = new Set()): void {
  // batch's `args` are another tool's arguments, validated against that tool's schema.
  const freeForm = where.endsWith('[].args') && schema.additionalProperties === true && schema.properties === undefined;
  if (schema.type === 'object' && !freeForm) {
    if (schema.additionalProperties !== false) problems.push(`${where}: additionalProperties must be false`);
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const mirrored = where.includes('[]') && (topLevel.has(name) || (name === 'path' && topLevel.has('file_path')));
      if (!mirrored && (typeof property.description !== 'string' || property.description.length < 10)) problems.push(`${where}.${name}: missing description`);
      schemaProblems(property, `${where}.${name}`, problems, topLevel);
    }
  }
  if (schema.type === 'integer' && (typeof schema['minimum'] !== 'number' || (typeof schema['maximum'] !== 'number' && !where.endsWith('.offset')))) {
    problems.push(`${where}: integer without bounds`);
  }
  if (schema.type === 'array') {
    if (typeof schema['maxItems'] !== 'number') problems.push(`${where}: array without maxItems`);
    if (schema.items !== undefined) schemaProblems(schema.items, `${where}[]`, problems, topLevel);
  }
}

describe('built-in tools', () => {
  it('come in a stable order and can be filtered', () => {
    expect(tools.map((tool) => tool.name)).toEqual([...BUILTIN_TOOL_NAMES]);
    expect(createBuiltinTools({ include: ['grep', 'read'] }).map((tool) => tool.name)).toEqual(['read', 'grep']);
    expect(createBuiltinTools({ exclude: ['bash'] }).map((tool) => tool.name)).not.toContain('bash');
  });

  it('publish strict, documented, bounded schemas that ajv compiles', () => {
    const ajv = new Ajv({ strict: true, allErrors: true });
    for (const tool of tools) {
      const problems: string[] = [];
      schemaProblems(tool.parameters, tool.name, problems, new Set(Object.keys(tool.parameters.properties ?? {})));
      expect(problems).toEqual([]);
      expect(() => ajv.compile(tool.parameters)).not.toThrow();
      expect(tool.description.length).toBeGreaterThan(40);
    }
  });

  it('validate arguments against the REFERENCE bounds', () => {
    const ajv = new Ajv({ strict: true });
    const valid = (name: string, args: unknown): boolean => ajv.validate(byName(name).parameters, args);
    expect(valid('read', { file_path: 'a', offset: 0, limit: 2000 })).toBe(true);
    expect(valid('read', { file_path: 'a', limit: 2001 })).toBe(false);
    expect(valid('read', { files: Array.from({ length: 32 }, () => ({ path: 'a' })), max_output_bytes: 98304 })).toBe(true);
    expect(valid('read', { files: Array.from({ length: 33 }, () => ({ path: 'a' })) })).toBe(false);
    expect(valid('read', { files: [] })).toBe(false);
    expect(valid('read', { file_path: 'a', max_output_bytes: 1023 })).toBe(false);
    expect(valid('read', { file_path: 'a', extra: 1 })).toBe(false);
    expect(valid('glob', { pattern: '*', limit: 1000, sort: 'path' })).toBe(true);
    expect(valid('glob', { pattern: '*', limit: 1001 })).toBe(false);
    expect(valid('grep', { pattern: 'x', '-i': true, context: 20, output_mode: 'summary' })).toBe(true);
    expect(valid('grep', { pattern: 'x', context: 21 })).toBe(false);
    expect(valid('bash', { command: 'ls', timeout: 600000 })).toBe(true);
    expect(valid('bash', { command: 'ls', timeout: 600001 })).toBe(false);
    expect(valid('git', { command: 'log', limit: 200, max_bytes: 256 })).toBe(true);
    expect(valid('git', { command: 'log', limit: 201 })).toBe(false);
    expect(valid('git', { command: 'diff', max_bytes: 102401 })).toBe(false);
    expect(valid('git', { command: 'push' })).toBe(false);
    expect(valid('edit', { file_path: 'a', old_string: 'x', new_string: 'y', dry_run: true, expected_replacements: 2, max_replacements: 3 })).toBe(true);
    const calls = (n: number) => Array.from({ length: n }, (_, i) => ({ tool: 'read', args: { file_path: 'a' }, id: `c${i}`, step: 'read a' }));
    expect(valid('batch', { invocations: calls(32), max_concurrency: 16 })).toBe(true);
    expect(valid('batch', { invocations: calls(33) })).toBe(false);
    expect(valid('batch', { invocations: [] })).toBe(false);
    expect(valid('batch', { invocations: calls(1), max_concurrency: 0 })).toBe(false);
    expect(valid('batch', { invocations: calls(1), max_concurrency: 17 })).toBe(false);
    expect(valid('batch', { invocations: [{ tool: 'read' }] })).toBe(false);
    expect(valid('batch', { invocations: [{ tool: 'read', args: {}, id: 'a.b' }] })).toBe(false);
  });

  it('declare per-invocation capabilities: reads fan out, writes are serial', () => {
    const caps = (name: string, args: Record<string, unknown>) => resolveToolCapabilities(byName(name).capabilities?.(args));
    const reads = [
      caps('read', { file_path: 'a' }),
      caps('ls', {}),
      caps('glob', { pattern: '*' }),
      caps('grep', { pattern: 'x' }),
      caps('git', { command: 'log' }),
      caps('edit', { file_path: 'a', old_string: 'a', new_string: 'b', dry_run: true }),
    ];
    expect(canRunInParallel(reads)).toBe(true);
    for (const [name, args] of [
      ['write', { file_path: 'a', content: '' }],
      ['edit', { file_path: 'a', old_string: 'a', new_string: 'b' }],
      ['patch', { file_path: 'a', diff: '@@' }],
      ['bash', { command: 'ls' }],
      ['git', { command: 'checkout', ref: 'x' }],
    ] as const) {
      expect(canRunInParallel([caps(name, args)])).toBe(false);
    }
  });

  it('name permission targets: paths for file tools, command for bash and git', () => {
    expect(byName('read').permissionTarget?.({ files: [{ path: 'a' }, { path: 'b' }] })).toEqual({ kind: 'paths', paths: ['a', 'b'] });
    expect(byName('write').permissionTarget?.({ file_path: '.env', content: '' })).toEqual({ kind: 'paths', paths: ['.env'] });
    expect(byName('ls').permissionTarget?.({})).toEqual({ kind: 'paths', paths: ['.'] });
    expect(byName('bash').permissionTarget?.({ command: 'rm -rf x' })).toEqual({ kind: 'command', command: 'rm -rf x' });
    expect(byName('web_fetch').permissionTarget?.({ url: 'https://Docs.rs/a?api_key=s&b=1' })).toEqual({ kind: 'url', url: 'https://docs.rs/a?b=1', host: 'docs.rs' });
  });

  it('are selected by workspace capabilities', () => {
    const s3: WorkspaceCapabilities = { read: true, write: true, list: true, search: false, exec: false, git: false, versionedWrites: true };
    expect(selectToolsForWorkspace(tools, s3).map((tool) => tool.name)).toEqual(['read', 'write', 'edit', 'patch', 'ls', 'batch', 'web_fetch', 'web_search']);
    const local: WorkspaceCapabilities = { ...s3, search: true, exec: true, git: true };
    expect(selectToolsForWorkspace(tools, local)).toHaveLength(12);
    expect(selectToolsForWorkspace(tools, { ...local, write: false }).map((tool) => tool.name)).toEqual(['read', 'ls', 'glob', 'grep', 'bash', 'git', 'batch', 'web_fetch', 'web_search']);
  });

  it('pins the public export list', () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
      [
        "BUILTIN_TOOL_NAMES",
        "WEB_SEARCH_SERVICE",
        "createBashTool",
        "createBatchTool",
        "createBingRssEngine",
        "createBraveEngine",
        "createBuiltinTools",
        "createDuckDuckGoEngine",
        "createEditTool",
        "createGenerateObjectTool",
        "createGitTool",
        "createGlobTool",
        "createGrepTool",
        "createLsTool",
        "createParallelTaskTool",
        "createPatchTool",
        "createReadTool",
        "createSearchSkillsTool",
        "createSkillTool",
        "createTaskTool",
        "createUpdatePlanTool",
        "createWebFetchTool",
        "createWebSearchService",
        "createWebSearchTool",
        "createWriteTool",
        "execOutputText",
        "renderTaskResult",
        "selectToolsForWorkspace",
        "taskSummary",
      ]
    `);
  });
});
