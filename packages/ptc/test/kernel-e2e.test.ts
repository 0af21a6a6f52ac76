import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfirmationManager, HookRegistry, InvocationKernel, ToolRegistry } from '@a3s-lab/code-core/kernel';
import type { AgentEvent } from '@a3s-lab/code-core';
import type { InvocationKernelOptions } from '@a3s-lab/code-core/kernel';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { LocalWorkspaceBackend } from '@a3s-lab/code-local';
import { createBuiltinTools } from '@a3s-lab/code-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgramTool, toProgramArgs } from '../src/index.js';
import type { ProgramMetadata } from '../src/index.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'a3s-ptc-'));
  await mkdir(join(root, 'crates/auth/src'), { recursive: true });
  await mkdir(join(root, 'scripts/ptc'), { recursive: true });
  await writeFile(join(root, 'crates/auth/src/lib.rs'), 'pub struct PermissionPolicy;\nimpl PermissionPolicy {}\n');
  await writeFile(join(root, 'crates/auth/src/other.rs'), 'fn unrelated() {}\n');
  await writeFile(
    join(root, 'scripts/ptc/search-auth.js'),
    `export default async function run(ctx, inputs) {
  const hits = await ctx.grep(inputs.query, { glob: '*.rs' });
  const files = await ctx.glob('crates/**/*.rs');
  const snippets = [];
  for (const file of files.slice(0, 20)) {
    const content = await ctx.readFile(file);
    if (content.includes(inputs.query)) snippets.push({ file, preview: content.slice(0, 1200) });
  }
  return { summary: \`Found \${snippets.length} candidate files for \${inputs.query}\`, evidence: snippets, rawSearch: hits };
}
`,
  );
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function kernelOver(workspace: InvocationKernelOptions['workspace'], options: Partial<InvocationKernelOptions> = {}) {
  const events: AgentEvent[] = [];
  const registry = new ToolRegistry([...createBuiltinTools(), createProgramTool()]);
  const kernel = new InvocationKernel({ sessionId: 'ptc-e2e', registry, workspace, emit: (event) => events.push(event), ...options });
  return { kernel, events };
}

const programMeta = (metadata: unknown) => (metadata as { program: ProgramMetadata; script_result?: unknown });

describe('program through the real kernel', () => {
  it('ctx.bash gives the command output (stdout then stderr) like session.bash; ctx.readFile honours offset/limit', async () => {
    const { kernel } = kernelOver(new LocalWorkspaceBackend(root));
    const source = `export default async function run(ctx) {
      return { bash: await ctx.bash('echo out; echo err >&2'), window: await ctx.readFile('crates/auth/src/lib.rs', { offset: 1, limit: 1 }) };
    }`;
    const result = await kernel.invoke({ toolName: 'program', args: toProgramArgs({ source }), origin: 'host-direct', toolId: 'p-bash' });
    expect(result.exitCode, result.output).toBe(0);
    expect(programMeta(result.metadata).script_result).toEqual({ bash: 'out\nerr\n', window: 'impl PermissionPolicy {}\n' });
  });

  it('runs search-auth.js by path over a local workspace with the real tools', async () => {
    const { kernel, events } = kernelOver(new LocalWorkspaceBackend(root));
    const result = await kernel.invoke({
      toolName: 'program',
      args: toProgramArgs({ path: 'scripts/ptc/search-auth.js', inputs: { query: 'PermissionPolicy' }, allowedTools: ['grep', 'glob', 'read'], limits: { timeoutMs: 30000, maxToolCalls: 30, maxOutputBytes: 65536 } }),
      origin: 'host-direct',
      toolId: 'p1',
    });
    expect(result.exitCode, result.output).toBe(0);
    const { program, script_result } = programMeta(result.metadata);
    expect(script_result).toMatchObject({
      summary: 'Found 1 candidate files for PermissionPolicy',
      evidence: [{ file: 'crates/auth/src/lib.rs', preview: 'pub struct PermissionPolicy;\nimpl PermissionPolicy {}\n' }],
    });
    expect(program.tool_calls.map((call) => call.tool_name).sort()).toEqual(['glob', 'grep', 'read', 'read']);
    expect(program.tool_calls.every((call) => call.success)).toBe(true);
    // Every ctx call was a governed nested invocation carrying the program's id.
    const nestedStarts = events.filter((event) => event.type === 'tool_start' && event.payload['parent_tool_id'] === 'p1');
    expect(nestedStarts).toHaveLength(4);
    expect(nestedStarts.every((event) => event.payload['origin'] === 'nested')).toBe(true);
  });

  it('runs the inline sample over the memory workspace', async () => {
    const { kernel } = kernelOver(new MemoryWorkspaceBackend({ files: { 'src/a.ts': 'export class PermissionPolicy {}\n', 'src/b.ts': 'x\n' } }));
    const result = await kernel.invoke({
      toolName: 'program',
      args: toProgramArgs({
        source: `export default async function run(ctx, inputs) {
          const hits = await ctx.grep(inputs.query, { glob: '*.ts' })
          const files = await ctx.glob('src/**/*.ts')
          return { hits, files: files.slice(0, 10) }
        }`,
        inputs: { query: 'PermissionPolicy' },
        allowedTools: ['grep', 'glob'],
        limits: { timeoutMs: 30000, maxToolCalls: 20, maxOutputBytes: 65536 },
      }),
      origin: 'host-direct',
    });
    expect(result.exitCode, result.output).toBe(0);
    const { program, script_result } = programMeta(result.metadata);
    expect((script_result as { files: string[] }).files.sort()).toEqual(['src/a.ts', 'src/b.ts']);
    expect((script_result as { hits: string }).hits).toContain('src/a.ts');
    expect(program.tool_calls.map((call) => call.tool_name)).toEqual(['grep', 'glob']);
    expect(program.limits).toEqual({ timeoutMs: 30000, maxToolCalls: 20, maxOutputBytes: 65536 });
  });

  it('bash under permissionPolicy ask raises a confirmation; denying it throws inside the script and nothing runs', async () => {
    const confirmation = new ConfirmationManager({});
    const { kernel, events } = kernelOver(new LocalWorkspaceBackend(root), { permissionPolicy: { allow: ['program'], ask: ['bash*'] }, confirmation });
    const running = kernel.invoke({
      toolName: 'program',
      args: toProgramArgs({
        source: `export default async function run(ctx) {
          try { await ctx.bash('touch created-by-program.txt'); return 'ran' }
          catch (error) { return { denied: error.message, kind: error.errorKind && error.errorKind.type } }
        }`,
      }),
      origin: 'agent',
      toolId: 'p2',
    });
    for (let i = 0; i < 200 && confirmation.pending().length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(confirmation.pending()).toHaveLength(1);
    const pending = confirmation.pending()[0];
    expect(pending?.toolName).toBe('bash');
    const required = events.find((event) => event.type === 'confirmation_required');
    expect(required?.payload['parent_tool_id']).toBe('p2');
    confirmation.confirm(pending?.toolId ?? '', false, 'not in this program');
    const result = await running;
    expect(result.exitCode, result.output).toBe(0);
    expect(programMeta(result.metadata).script_result).toMatchObject({ kind: 'permission_denied', denied: expect.stringContaining('not in this program') });
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(root, 'created-by-program.txt'))).toBe(false);
  });

  it('a deadline while a nested call awaits confirmation withdraws the ask; answering late runs nothing', async () => {
    const confirmation = new ConfirmationManager({});
    const { kernel, events } = kernelOver(new LocalWorkspaceBackend(root), { permissionPolicy: { allow: ['program'], ask: ['bash*'] }, confirmation });
    const started = performance.now();
    const result = await kernel.invoke({
      toolName: 'program',
      args: toProgramArgs({ source: `export default async (ctx) => ctx.bash('touch late-by-program.txt')`, limits: { timeoutMs: 300 } }),
      origin: 'agent',
      toolId: 'p9',
    });
    const elapsed = performance.now() - started;
    expect(programMeta(result.metadata).program.error?.code).toBe('PROGRAM_TIMEOUT');
    // The run waited for its nested call, which the abort settled (no 60 s backstop).
    expect(elapsed).toBeLessThan(10_000);
    expect(confirmation.pending()).toHaveLength(0);
    const asked = events.find((event) => event.type === 'confirmation_required')?.payload['tool_id'];
    expect(typeof asked).toBe('string');
    expect(confirmation.confirm(asked as string, true, 'too late')).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(root, 'late-by-program.txt'))).toBe(false);
  });

  it('a pre-hook sees every nested call with parent_tool_id, and its block reaches the script', async () => {
    const hooks = new HookRegistry();
    const seen: Record<string, unknown>[] = [];
    hooks.register('audit', 'pre_tool_use', null, null, (event) => {
      seen.push(event.payload);
      return event.payload['tool_name'] === 'ls' ? { action: 'block', reason: 'no listing' } : { action: 'continue' };
    });
    const { kernel } = kernelOver(new MemoryWorkspaceBackend({ files: { 'a.txt': 'alpha\n' } }), { hooks });
    const result = await kernel.invoke({
      toolName: 'program',
      args: toProgramArgs({ source: 'export default async (ctx) => ({ text: await ctx.readFile("a.txt"), ls: await ctx.ls().catch((e) => e.errorKind.type) })' }),
      origin: 'host-direct',
      toolId: 'p3',
    });
    expect(result.exitCode, result.output).toBe(0);
    expect(programMeta(result.metadata).script_result).toEqual({ text: 'alpha\n', ls: 'hook_denied' });
    const nested = seen.filter((payload) => payload['tool_name'] !== 'program');
    expect(nested.map((payload) => [payload['tool_name'], payload['origin'], payload['parent_tool_id']])).toEqual([
      ['read', 'nested', 'p3'],
      ['ls', 'nested', 'p3'],
    ]);
  });

  it('the kernel refuses a program inside a program even when the script asks for it', async () => {
    const { kernel } = kernelOver(new MemoryWorkspaceBackend());
    const result = await kernel.invoke({
      toolName: 'program',
      args: toProgramArgs({ source: 'export default (ctx) => ctx.tool("program", { type: "script", source: "export default () => 1" }).catch((e) => e.message)', allowedTools: ['program'] }),
      origin: 'host-direct',
    });
    expect(programMeta(result.metadata).script_result).toBe("tool 'program' can never be called from inside a program");
  });

  it('ctx.readFile returns the exact text of a file larger than the inline bound, in raw pages', async () => {
    const text = Array.from({ length: 700 }, (_, index) => `líne ${index}\t${'é'.repeat(index % 13)}\r\n`).join('') + 'no newline at the end';
    const { kernel, events } = kernelOver(new MemoryWorkspaceBackend({ files: { 'big.txt': text } }), { maxInlineOutputBytes: 4096 });
    const result = await kernel.invoke({
      toolName: 'program',
      args: toProgramArgs({ source: 'export default async (ctx) => ctx.readFile("big.txt")', limits: { maxToolCalls: 100, maxOutputBytes: 1048576 } }),
      origin: 'host-direct',
      toolId: 'p5',
    });
    const { program, script_result } = programMeta(result.metadata);
    expect(script_result).toBe(text);
    const reads = events.filter((event) => event.type === 'tool_start' && event.payload['parent_tool_id'] === 'p5');
    expect(reads.length).toBe(program.tool_calls.length);
    expect(reads.length).toBeGreaterThan(2);
    expect(reads.every((event) => (event.payload['args'] as { format?: string }).format === 'raw')).toBe(true);
  });

  it('batch inside a program is governed like any ctx call; a program inside a batch runs, a program in it cannot', async () => {
    const { kernel, events } = kernelOver(new MemoryWorkspaceBackend({ files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } }));
    const inProgram = await kernel.invoke({
      toolName: 'program',
      args: toProgramArgs({
        source: `export default async (ctx) => {
          const r = await ctx.tool('batch', { invocations: [{ tool: 'read', args: { file_path: 'a.txt', format: 'raw' } }, { tool: 'read', args: { file_path: 'b.txt', format: 'raw' } }] });
          return { exitCode: r.exitCode, batch: r.metadata.batch.mode, failed: r.metadata.batch.failed };
        }`,
      }),
      origin: 'host-direct',
      toolId: 'p6',
    });
    expect(programMeta(inProgram.metadata).script_result).toEqual({ exitCode: 0, batch: 'parallel', failed: [] });
    const starts = events.filter((event) => event.type === 'tool_start');
    const batchStart = starts.find((event) => event.payload['tool_name'] === 'batch');
    expect(batchStart?.payload['parent_tool_id']).toBe('p6');
    const reads = starts.filter((event) => event.payload['tool_name'] === 'read');
    expect(reads.map((event) => [event.payload['parent_tool_id'], event.payload['origin']])).toEqual([
      [batchStart?.payload['tool_id'], 'nested'],
      [batchStart?.payload['tool_id'], 'nested'],
    ]);

    const inBatch = await kernel.invoke({
      toolName: 'batch',
      origin: 'agent',
      toolId: 'b7',
      args: {
        invocations: [
          { tool: 'program', args: toProgramArgs({ source: 'export default async (ctx) => (await ctx.readFile("a.txt")).trim()' }) },
          { tool: 'program', args: toProgramArgs({ source: 'export default async (ctx) => (await ctx.tool("batch", { invocations: [{ tool: "ls", args: {} }] })).output' }) },
        ],
      },
    });
    const batch = (inBatch.metadata as { batch: { mode: string; failed: number[] } }).batch;
    expect(batch).toMatchObject({ mode: 'serial', failed: [] });
    expect(inBatch.output).toContain('[0] program: ok\nalpha');
    // The batch inside the program inside the batch is refused by the kernel's recursion guard.
    expect(inBatch.output).toContain("a 'batch' orchestration cannot run inside another (call chain: batch > program > batch");
  });
});
