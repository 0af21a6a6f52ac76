import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_MAX_TOOL_CALLS,
  DEFAULT_PROGRAM_TIMEOUT_MS,
  MAX_SOURCE_BYTES,
  ProgramLimits,
  VM_MAX_STACK_SIZE,
  VM_MEMORY_LIMIT_BYTES,
  createProgramTool,
  toProgramArgs,
} from '../src/index.js';
import type { ProgramMetadata, ProgramToolArgs } from '../src/index.js';
import { createFakeContext } from './fake-context.js';
import type { FakeTool } from './fake-context.js';

const SEARCH_AUTH = `
export default async function run(ctx, inputs) {
  const hits = await ctx.grep(inputs.query, { glob: '*.rs' });
  const files = await ctx.glob('crates/**/*.rs');
  const snippets = [];

  for (const file of files.slice(0, 20)) {
    const content = await ctx.readFile(file);
    if (content.includes(inputs.query)) {
      snippets.push({ file, preview: content.slice(0, 1200) });
    }
  }

  return {
    summary: \`Found \${snippets.length} candidate files for \${inputs.query}\`,
    evidence: snippets,
    rawSearch: hits,
  };
}
`;

const FILES: Record<string, string> = {
  'crates/auth/src/lib.rs': 'pub struct PermissionPolicy;\nimpl PermissionPolicy {}\n',
  'crates/core/src/main.rs': 'fn main() {}\n',
};

/** Fake tools rendering like the built-ins: numbered read lines (exact text in raw format), one glob path a line. */
const fakeTools: Record<string, FakeTool> = {
  grep: (args) => ({ output: `crates/auth/src/lib.rs:1:pub struct ${String(args['pattern'])};` }),
  glob: () => ({ output: `${Object.keys(FILES).join('\n')}\n... more files; call glob again with cursor="c1"`, metadata: { count: 2, next_cursor: 'c1' } }),
  read: (args) => {
    const text = FILES[String(args['file_path'])];
    if (text === undefined) return { output: `file not found: ${String(args['file_path'])}`, exitCode: 1, errorKind: { type: 'not_found', path: String(args['file_path']) } };
    const lines = text.split('\n').slice(0, -1);
    if (args['format'] === 'raw') return { output: text, metadata: { raw: true, total_lines: lines.length } };
    return { output: lines.map((line, index) => `${String(index + 1).padStart(6, ' ')}\t${line}\n`).join(''), metadata: { lines_shown: lines.length, next_offset: null } };
  },
  ls: (args) => ({ output: `listing ${String(args['path'] ?? '.')}` }),
  bash: (args) => (args['command'] === 'false' ? { output: 'exit 1: boom', exitCode: 1 } : { output: `ran ${String(args['command'])}` }),
  git: (args) => ({ output: `git ${String(args['command'])}` }),
  program: () => ({ output: 'must never run' }),
  parallel_task: () => ({ output: 'must never run' }),
};

async function runProgram(args: Omit<ProgramToolArgs, 'type'>, tools = fakeTools, files: Record<string, string> = {}) {
  const fake = createFakeContext(tools, { files });
  const result = await createProgramTool().execute({ type: 'script', ...args }, fake.context);
  const metadata = (result.metadata ?? {}) as { program: ProgramMetadata; script_result?: unknown };
  return { result, metadata, program: metadata.program, ...fake };
}

describe('program tool', () => {
  it('exports its limits as named constants and one policy object', () => {
    expect([DEFAULT_PROGRAM_TIMEOUT_MS, DEFAULT_MAX_TOOL_CALLS, DEFAULT_MAX_OUTPUT_BYTES, MAX_SOURCE_BYTES]).toEqual([30_000, 20, 65_536, 192 * 1024]);
    expect(VM_MEMORY_LIMIT_BYTES).toBe(64 * 1024 * 1024);
    expect(ProgramLimits).toMatchObject({ timeoutMs: 30_000, maxToolCalls: 20, maxOutputBytes: 65_536, maxSourceBytes: MAX_SOURCE_BYTES, memoryLimitBytes: VM_MEMORY_LIMIT_BYTES, maxStackSizeBytes: VM_MAX_STACK_SIZE });
    const tool = createProgramTool();
    expect(tool.name).toBe('program');
    expect(tool.orchestration).toBe('program');
    expect(tool.capabilities?.({ type: 'script' }).readOnly).toBeUndefined();
  });

  it('runs the spec sample search-auth.js by path with inputs, allowedTools and limits', async () => {
    const args = toProgramArgs({
      path: 'scripts/ptc/search-auth.js',
      inputs: { query: 'PermissionPolicy' },
      allowedTools: ['grep', 'glob', 'read'],
      limits: { timeoutMs: 30000, maxToolCalls: 30, maxOutputBytes: 65536 },
    });
    const { type: _type, ...rest } = args;
    const { result, metadata, program, calls } = await runProgram(rest, fakeTools, { 'scripts/ptc/search-auth.js': SEARCH_AUTH });
    expect(result.exitCode ?? 0).toBe(0);
    expect(metadata.script_result).toEqual({
      summary: 'Found 1 candidate files for PermissionPolicy',
      evidence: [{ file: 'crates/auth/src/lib.rs', preview: FILES['crates/auth/src/lib.rs'] }],
      rawSearch: 'crates/auth/src/lib.rs:1:pub struct PermissionPolicy;',
    });
    expect(JSON.parse(result.output)).toEqual(metadata.script_result);
    expect(program.limits).toEqual({ timeoutMs: 30000, maxToolCalls: 30, maxOutputBytes: 65536 });
    expect(program.tool_calls.map((call) => call.tool_name)).toEqual(['grep', 'glob', 'read', 'read']);
    for (const call of program.tool_calls) {
      expect(call).toEqual({ tool_name: call.tool_name, success: true, exit_code: 0, output_bytes: expect.any(Number), duration_ms: expect.any(Number) });
      expect(call.output_bytes).toBeGreaterThan(0);
    }
    expect(typeof program.duration_ms).toBe('number');
    expect(calls[0]).toEqual({ tool: 'grep', args: { glob: '*.rs', pattern: 'PermissionPolicy' } });
    expect(calls[2]).toEqual({ tool: 'read', args: { file_path: 'crates/auth/src/lib.rs', format: 'raw' } });
  });

  it('runs the node-sdk inline sample with allowedTools grep and glob', async () => {
    const source = `
      export default async function run(ctx, inputs) {
        const hits = await ctx.grep(inputs.query, { glob: '*.ts' })
        const files = await ctx.glob('src/**/*.ts')
        return { hits, files: files.slice(0, 10) }
      }`;
    const { result, metadata, program } = await runProgram({ source, inputs: { query: 'PermissionPolicy' }, allowed_tools: ['grep', 'glob'], limits: { timeoutMs: 30000, maxToolCalls: 20, maxOutputBytes: 65536 } });
    expect(result.exitCode ?? 0).toBe(0);
    expect(metadata.script_result).toEqual({ hits: 'crates/auth/src/lib.rs:1:pub struct PermissionPolicy;', files: Object.keys(FILES) });
    expect(program).toEqual({
      tool_calls: [
        { tool_name: 'grep', success: true, exit_code: 0, output_bytes: expect.any(Number), duration_ms: expect.any(Number) },
        { tool_name: 'glob', success: true, exit_code: 0, output_bytes: expect.any(Number), duration_ms: expect.any(Number) },
      ],
      duration_ms: expect.any(Number),
      limits: { timeoutMs: 30000, maxToolCalls: 20, maxOutputBytes: 65536 },
      logs: [],
      logs_truncated: false,
    });
  });

  it('accepts a plain async function run declaration and a string result as is', async () => {
    const { result, metadata } = await runProgram({ source: 'async function run(ctx, inputs) { return `hello ${inputs.name}` }', inputs: { name: 'ptc' } });
    expect(result.output).toBe('hello ptc');
    expect(metadata.script_result).toBe('hello ptc');
  });

  it('a failed helper call throws a catchable Error carrying the tool output; ctx.tool does not throw', async () => {
    const source = `
      export default async function run(ctx) {
        let caught = null;
        try { await ctx.bash('false') } catch (error) { caught = { name: error.name, message: error.message, exitCode: error.exitCode, tool: error.tool, isError: error instanceof Error } }
        const raw = await ctx.tool('bash', { command: 'false' });
        const missing = await ctx.readFile('nope.rs').catch((error) => error.errorKind);
        return { caught, raw, missing };
      }`;
    const { metadata, program } = await runProgram({ source });
    expect(metadata.script_result).toEqual({
      caught: { name: 'ToolCallError', message: 'exit 1: boom', exitCode: 1, tool: 'bash', isError: true },
      raw: { name: 'bash', output: 'exit 1: boom', exitCode: 1, metadata: {} },
      missing: { type: 'not_found', path: 'nope.rs' },
    });
    expect(program.tool_calls.map((call) => [call.tool_name, call.success, call.exit_code])).toEqual([
      ['bash', false, 1],
      ['bash', false, 1],
      ['read', false, 1],
    ]);
  });

  it('maps every ctx helper to its tool call', async () => {
    const source = `
      export default async function run(ctx) {
        return [await ctx.read('crates/core/src/main.rs'), await ctx.ls(), await ctx.ls('src'), await ctx.bash('echo hi', { timeout: 5000 }), await ctx.git('status'), await ctx.git({ command: 'log', limit: 2 }), await ctx.read({ file_path: 'crates/core/src/main.rs', offset: 0 })];
      }`;
    const { metadata, calls } = await runProgram({ source });
    expect(calls).toEqual([
      { tool: 'read', args: { file_path: 'crates/core/src/main.rs' } },
      { tool: 'ls', args: {} },
      { tool: 'ls', args: { path: 'src' } },
      { tool: 'bash', args: { timeout: 5000, command: 'echo hi' } },
      { tool: 'git', args: { command: 'status' } },
      { tool: 'git', args: { command: 'log', limit: 2 } },
      { tool: 'read', args: { file_path: 'crates/core/src/main.rs', offset: 0 } },
    ]);
    const results = metadata.script_result as { name: string; output: string; exitCode: number; metadata: unknown }[];
    // ctx.read and ctx.git give the result object (exitCode, output, metadata), like the original package.
    expect(results[0]).toMatchObject({ name: 'read', output: '     1\tfn main() {}\n', exitCode: 0 });
    expect(results[4]).toMatchObject({ name: 'git', exitCode: 0 });
    expect(results[6]).toMatchObject({ name: 'read', exitCode: 0 });
  });

  it('ctx.read and ctx.git report a failed call through exitCode instead of throwing', async () => {
    const failing: FakeTool = () => ({ output: 'Not found: nope.rs', exitCode: 1 });
    const source = `
      export default async function run(ctx) {
        const read = await ctx.read('nope.rs');
        const git = await ctx.git('status');
        return { read: [read.exitCode, read.output], git: git.exitCode };
      }`;
    const { metadata } = await runProgram({ source }, { read: failing, git: failing });
    expect(metadata.script_result).toEqual({ read: [1, 'Not found: nope.rs'], git: 1 });
  });

  it('ctx.readFile(path, {offset, limit}) returns exactly that window of raw lines', async () => {
    const all = Array.from({ length: 5000 }, (_, index) => `l${index}\n`);
    const rawRead: FakeTool = (args) => {
      const offset = typeof args['offset'] === 'number' ? args['offset'] : 0;
      const limit = typeof args['limit'] === 'number' ? args['limit'] : all.length;
      const end = Math.min(all.length, offset + limit);
      return { output: all.slice(offset, end).join(''), metadata: { raw: true, total_lines: all.length, offset, lines_shown: end - offset, next_offset: end < all.length ? end : null } };
    };
    const window = await runProgram({ source: 'export default (ctx) => ctx.readFile("f.txt", { offset: 10, limit: 3 })' }, { read: rawRead });
    expect(window.metadata.script_result).toBe('l10\nl11\nl12\n');
    expect(window.calls).toEqual([{ tool: 'read', args: { file_path: 'f.txt', format: 'raw', offset: 10, limit: 3 } }]);

    // Over one page (2000 lines): read in pages until the limit, never past it.
    const long = await runProgram({ source: 'export default (ctx) => ctx.readFile("f.txt", { offset: 100, limit: 2500 })' }, { read: rawRead });
    expect(long.metadata.script_result).toBe(all.slice(100, 2600).join(''));
    expect(long.calls.map((call) => [call.args['offset'], call.args['limit']])).toEqual([[100, 2000], [2100, 500]]);

    // offset alone reads to the end of the file.
    const tail = await runProgram({ source: 'export default (ctx) => ctx.readFile("f.txt", { offset: 4998 })' }, { read: rawRead });
    expect(tail.metadata.script_result).toBe('l4998\nl4999\n');

    const bad = await runProgram({ source: 'export default async (ctx) => { try { await ctx.readFile("f.txt", { limit: 0 }) } catch (e) { return e.name + ": " + e.message } }' }, { read: rawRead });
    expect(bad.metadata.script_result).toBe('TypeError: ctx.readFile(path, {offset, limit}): limit must be a positive integer');
    expect(bad.calls).toEqual([]);
  });

  it('ctx.readFile is one raw read; a file the kernel bounded is paged in raw pages that fit', async () => {
    // 10 lines of 10 bytes under a 40-byte inline bound: the whole file is bounded, pages of
    // floor(10 * 40 * 0.75 / 100) = 3 lines fit; a page over the bound shrinks and is retried.
    const lines = Array.from({ length: 10 }, (_, index) => `line ${String(index).padStart(3, '0')}\n`);
    const inline = 40;
    const rawRead: FakeTool = (args) => {
      const path = String(args['file_path']);
      if (path === 'small.txt') return { output: 'exact\r\ntext', metadata: { raw: true, total_lines: 2 } };
      const text = path === 'wide.txt' ? `${'w'.repeat(50)}\n${lines.join('')}` : lines.join('');
      const all = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
      const offset = typeof args['offset'] === 'number' ? args['offset'] : 0;
      const limit = typeof args['limit'] === 'number' ? args['limit'] : all.length;
      const page = all.slice(offset, offset + limit).join('');
      const end = Math.min(all.length, offset + limit);
      const metadata = { raw: true, total_lines: all.length, ...(args['limit'] === undefined ? {} : { offset, lines_shown: end - offset, next_offset: end < all.length ? end : null }) };
      if (page.length <= inline) return { output: page, metadata };
      return { output: `${page.slice(0, 10)}[... omitted ...]`, metadata: { ...metadata, output_bounds: { total_bytes: page.length, omitted_bytes: page.length - 10, max_inline_bytes: inline, artifact: 'a3s://tool-output/read/x' } } };
    };
    const small = await runProgram({ source: 'export default (ctx) => ctx.readFile("small.txt")' }, { read: rawRead });
    expect(small.metadata.script_result).toBe('exact\r\ntext');
    expect(small.calls).toEqual([{ tool: 'read', args: { file_path: 'small.txt', format: 'raw' } }]);

    const big = await runProgram({ source: 'export default (ctx) => ctx.readFile("big.txt")' }, { read: rawRead });
    expect(big.metadata.script_result).toBe(lines.join(''));
    expect(big.calls.map((call) => [call.args['offset'], call.args['limit']])).toEqual([
      [undefined, undefined],
      [0, 3],
      [3, 3],
      [6, 3],
      [9, 3],
    ]);
    expect(big.calls.every((call) => call.args['format'] === 'raw')).toBe(true);
    expect(big.program.tool_calls).toHaveLength(5);

    // A 51-byte first line cannot fit a 40-byte bound even alone: the call fails clearly.
    const wide = await runProgram({ source: 'export default (ctx) => ctx.readFile("wide.txt").catch((error) => ({ message: error.message, kind: error.errorKind.type }))' }, { read: rawRead });
    expect(wide.metadata.script_result).toEqual({ message: expect.stringContaining('line 1 of wide.txt is'), kind: 'unsupported' });
    expect(wide.calls.map((call) => call.args['limit'])).toEqual([undefined, 2, 1]);
  });

  it('allow-list: omitted means every tool but program; orchestrators are never callable, even when listed', async () => {
    const source = `
      export default async function run(ctx) {
        const out = {};
        for (const name of ['ls', 'program', 'parallel_task', 'dynamic_workflow']) {
          try { out[name] = (await ctx.tool(name, {})).output } catch (error) { out[name] = error.message }
        }
        return out;
      }`;
    const open = await runProgram({ source });
    expect(open.metadata.script_result).toEqual({
      ls: 'listing .',
      program: "tool 'program' can never be called from inside a program",
      parallel_task: "tool 'parallel_task' can never be called from inside a program",
      dynamic_workflow: "tool 'dynamic_workflow' can never be called from inside a program",
    });
    const listed = await runProgram({ source, allowed_tools: ['program', 'parallel_task', 'dynamic_workflow'] });
    expect((listed.metadata.script_result as Record<string, string>)['ls']).toContain("tool 'ls' is not allowed in this program");
    expect((listed.metadata.script_result as Record<string, string>)['program']).toBe("tool 'program' can never be called from inside a program");
    expect(listed.calls).toEqual([]);
    expect(open.calls.map((call) => call.tool)).toEqual(['ls']);
  });

  it('console output is collected, bounded, into metadata.program.logs', async () => {
    const source = `
      export default async function run() {
        console.log('hello', { a: 1 }, [2]);
        console.warn('careful');
        for (let i = 0; i < 2000; i++) console.log('x'.repeat(100));
        return 1;
      }`;
    const { program } = await runProgram({ source });
    expect(program.logs.slice(0, 2)).toEqual([
      { level: 'log', message: 'hello {"a":1} [2]' },
      { level: 'warn', message: 'careful' },
    ]);
    expect(program.logs_truncated).toBe(true);
    expect(program.logs.reduce((sum, entry) => sum + entry.message.length, 0)).toBeLessThanOrEqual(ProgramLimits.maxLogBytes);
  });

  it('rejects bad arguments with typed failures and runs nothing', async () => {
    const cases: [Omit<ProgramToolArgs, 'type'>, string, string | undefined][] = [
      [{ source: 'export default () => 1', path: 'a.js' }, 'PROGRAM_INVALID_ARGUMENT', 'invalid_argument'],
      [{}, 'PROGRAM_INVALID_ARGUMENT', 'invalid_argument'],
      [{ path: 'script.ts' }, 'PROGRAM_INVALID_ARGUMENT', 'invalid_argument'],
      [{ path: 'missing.mjs' }, 'PROGRAM_SCRIPT_NOT_FOUND', 'not_found'],
      [{ source: `export default () => 1;\n//${'x'.repeat(MAX_SOURCE_BYTES)}` }, 'PROGRAM_SOURCE_TOO_LARGE', 'invalid_argument'],
      [{ source: 'export default async function run( {' }, 'PROGRAM_SYNTAX_ERROR', 'invalid_argument'],
      [{ source: 'export const value = 1;' }, 'PROGRAM_INVALID_EXPORT', 'invalid_argument'],
      [{ source: 'export default 42;' }, 'PROGRAM_INVALID_EXPORT', 'invalid_argument'],
    ];
    for (const [args, code, kind] of cases) {
      const { result, program, calls } = await runProgram(args);
      expect(result.exitCode, code).toBe(1);
      expect(program.error?.code).toBe(code);
      expect(result.errorKind?.type).toBe(kind);
      expect(result.output).toContain(code);
      expect(calls).toEqual([]);
    }
    const tooLarge = await runProgram({ source: `export default () => 1;\n//${'x'.repeat(MAX_SOURCE_BYTES)}` });
    expect(tooLarge.program.error?.details).toMatchObject({ limit: MAX_SOURCE_BYTES });
    await expect(createProgramTool().execute({ type: 'script', source: 'export default () => 1', limits: { timeoutMs: 0 } }, createFakeContext({}).context)).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      details: { field: 'limits.timeoutMs', errorKind: { type: 'invalid_argument' } },
    });
  });

  it('a script throwing reports PROGRAM_RUNTIME_ERROR with the guest message and stack', async () => {
    const { result, program } = await runProgram({ source: 'export default async function run() { null.x }' });
    expect(program.error?.code).toBe('PROGRAM_RUNTIME_ERROR');
    expect(program.error?.details).toMatchObject({ name: 'TypeError', phase: 'run' });
    expect(result.output).toContain('TypeError');
  });

  it('the caller abort ends a parked program with PROGRAM_CANCELLED and aborts the nested call', async () => {
    const controller = new AbortController();
    let nestedSignal: AbortSignal | undefined;
    const slow: FakeTool = (_args, signal) => {
      nestedSignal = signal;
      return new Promise((resolve) => signal?.addEventListener('abort', () => resolve({ output: 'aborted', exitCode: 1 })));
    };
    const fake = createFakeContext({ slow }, { abortSignal: controller.signal });
    const running = createProgramTool().execute({ type: 'script', source: 'export default (ctx) => ctx.tool("slow", {})' }, fake.context);
    setTimeout(() => controller.abort(), 50);
    const result = await running;
    expect(result.errorKind).toEqual({ type: 'cancelled', op: 'program' });
    expect((result.metadata as { program: ProgramMetadata }).program.error?.code).toBe('PROGRAM_CANCELLED');
    expect(nestedSignal?.aborted).toBe(true);
  });

  it('toProgramArgs converts the SDK camelCase shape and leaves absent options out', () => {
    expect(toProgramArgs({ source: 's', allowedTools: ['grep'], limits: { maxToolCalls: 3 }, inputs: { a: 1 } })).toEqual({
      type: 'script',
      language: 'javascript',
      source: 's',
      inputs: { a: 1 },
      allowed_tools: ['grep'],
      limits: { maxToolCalls: 3 },
    });
    expect(toProgramArgs({ path: 'p.mjs' })).toEqual({ type: 'script', language: 'javascript', path: 'p.mjs' });
  });
});
