// Programmatic tool calling (`program`) and `batch` through the PUBLIC SDK: the samples of
// shared/spec/tools.md and node-sdk.md, direct and model-driven (scripted model server, both wire
// protocols), and governance of the nested calls.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { AgentEvent, Session } from '../src/index.js';
import { PROTOCOLS, startHarness } from './harness.js';
import type { Harness } from './harness.js';

/** search-auth.js exactly as tools.md shows it. */
const SEARCH_AUTH = `// search-auth.js
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

/** The inline sample of node-sdk.md. */
const INLINE_SAMPLE = `
    export default async function run(ctx, inputs) {
      const hits = await ctx.grep(inputs.query, { glob: '*.ts' })
      const files = await ctx.glob('src/**/*.ts')
      return { hits, files: files.slice(0, 10) }
    }
  `;

// A generated file over the kernel's 100 KiB inline bound whose only mention of the query sits in
// the middle: found only when ctx.readFile returns the whole exact text.
const GENERATED = [
  ...Array.from({ length: 1500 }, (_, index) => `pub const ITEM_${index}: &str = "${'g'.repeat(40)}";\r\n`),
  '// uses PermissionPolicy\r\n',
  ...Array.from({ length: 1500 }, (_, index) => `pub const MORE_${index}: u32 = ${index};\r\n`),
].join('');

const RUST_WORKSPACE: Record<string, string> = {
  'scripts/ptc/search-auth.js': SEARCH_AUTH,
  'crates/auth/src/lib.rs': 'pub struct PermissionPolicy {\n    pub rules: Vec<String>,\n}\n',
  'crates/auth/src/check.rs': 'use crate::PermissionPolicy;\n\npub fn check(policy: &PermissionPolicy) -> bool {\n    policy.rules.is_empty()\n}\n',
  'crates/core/src/main.rs': 'fn main() {\n    println!("hello");\n}\n',
  'crates/gen/src/generated.rs': GENERATED,
};

interface ProgramCall {
  tool_name: string;
  success: boolean;
  exit_code: number;
  output_bytes: number;
  duration_ms: number;
}
interface ProgramMetadata {
  program: { tool_calls: ProgramCall[]; duration_ms: number; limits: Record<string, number>; logs: unknown[] };
  script_result: unknown;
}
interface BatchMetadata {
  batch: { total: number; succeeded: number; failed: number[]; mode: string; concurrency: number; results: { index: number; id: string; tool: string; exit_code: number; bytes: number }[] };
}

const programMetadata = (result: { metadataJson: string | null }): ProgramMetadata => JSON.parse(result.metadataJson ?? 'null') as ProgramMetadata;

async function collect(session: Session, prompt: string, onEvent: (event: AgentEvent) => Promise<void> = async () => {}): Promise<AgentEvent[]> {
  const stream = await session.stream(prompt);
  const events: AgentEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    await onEvent(event);
  }
  return events;
}

describe('programmatic tool calling through the SDK', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('session.program runs search-auth.js by path (tools.md sample) with exact file text', async () => {
    h = await startHarness('anthropic', [], RUST_WORKSPACE);
    const session = await h.agent.sessionAsync(h.dir);
    expect(session.toolNames()).toEqual(expect.arrayContaining(['program', 'batch', 'grep', 'glob', 'read']));
    const result = await session.program({
      path: 'scripts/ptc/search-auth.js',
      inputs: { query: 'PermissionPolicy' },
      allowedTools: ['grep', 'glob', 'read'],
      limits: {
        timeoutMs: 30000,
        maxToolCalls: 30,
        maxOutputBytes: 65536,
      },
    });
    expect(result.exitCode, result.output).toBe(0);
    expect(result.name).toBe('program');
    const metadata = programMetadata(result);
    const value = metadata.script_result as { summary: string; evidence: { file: string; preview: string }[]; rawSearch: string };
    expect(value.summary).toBe('Found 3 candidate files for PermissionPolicy');
    expect(value.evidence.map((item) => item.file).sort()).toEqual(['crates/auth/src/check.rs', 'crates/auth/src/lib.rs', 'crates/gen/src/generated.rs']);
    // Raw text: no line numbers, line endings kept.
    expect(value.evidence.find((item) => item.file === 'crates/auth/src/lib.rs')?.preview).toBe(RUST_WORKSPACE['crates/auth/src/lib.rs']);
    expect(value.evidence.find((item) => item.file === 'crates/gen/src/generated.rs')?.preview).toBe(GENERATED.slice(0, 1200));
    expect(value.rawSearch).toContain('crates/auth/src/lib.rs');
    expect(JSON.parse(result.output)).toEqual(value);
    // metadata.program.tool_calls: one entry per governed call, generated.rs paged in raw pages.
    const calls = metadata.program.tool_calls;
    expect(calls.slice(0, 2).map((call) => call.tool_name)).toEqual(['grep', 'glob']);
    expect(calls.filter((call) => call.tool_name === 'read').length).toBeGreaterThan(4);
    for (const call of calls) expect(call).toEqual({ tool_name: call.tool_name, success: true, exit_code: 0, output_bytes: expect.any(Number), duration_ms: expect.any(Number) });
    expect(metadata.program.limits).toEqual({ timeoutMs: 30000, maxToolCalls: 30, maxOutputBytes: 65536 });
  });

  it('the node-sdk.md inline sample; session.tool("program", ...) is the same thing', async () => {
    h = await startHarness('openai', [], {
      'src/auth/policy.ts': 'export class PermissionPolicy {}\n',
      'src/index.ts': "export { PermissionPolicy } from './auth/policy';\n",
      'src/util.ts': 'export const x = 1;\n',
      'docs/notes.md': 'PermissionPolicy is documented here\n',
    });
    const session = await h.agent.sessionAsync(h.dir);
    const result = await session.program({
      source: INLINE_SAMPLE,
      inputs: { query: 'PermissionPolicy' },
      allowedTools: ['grep', 'glob'],
      limits: { timeoutMs: 30000, maxToolCalls: 20, maxOutputBytes: 65536 },
    });
    expect(result.exitCode, result.output).toBe(0);
    const metadata = programMetadata(result);
    const value = metadata.script_result as { hits: string; files: string[] };
    expect([...value.files].sort()).toEqual(['src/auth/policy.ts', 'src/index.ts', 'src/util.ts']);
    expect(value.hits).toContain('src/auth/policy.ts:1:export class PermissionPolicy {}');
    expect(value.hits).not.toContain('docs/notes.md');
    expect(metadata.program.tool_calls.map((call) => call.tool_name)).toEqual(['grep', 'glob']);

    const direct = await session.tool('program', {
      type: 'script',
      language: 'javascript',
      source: INLINE_SAMPLE,
      inputs: { query: 'PermissionPolicy' },
      allowed_tools: ['grep', 'glob'],
      limits: { timeoutMs: 30000, maxToolCalls: 20, maxOutputBytes: 65536 },
    });
    expect(direct.exitCode).toBe(0);
    const same = programMetadata(direct).script_result as { hits: string; files: string[] };
    expect(same.hits).toBe(value.hits);
    expect([...same.files].sort()).toEqual([...value.files].sort());
    expect(programMetadata(direct).program.limits).toEqual(metadata.program.limits);

    // The allow-list holds: read is not in it.
    const refused = await session.program({ source: 'export default async (ctx) => ctx.readFile("src/util.ts").catch((e) => e.message)', allowedTools: ['grep', 'glob'] });
    expect(programMetadata(refused).script_result).toBe("tool 'read' is not allowed in this program (allowed: grep, glob)");
  });

  it('nested calls are governed: an ask on bash raises a confirmation; denying throws inside the script and nothing runs', async () => {
    h = await startHarness('anthropic', [], { 'a.txt': 'alpha\n' });
    const session = h.agent.session(h.dir, {
      permissionPolicy: { ask: ['bash*'], defaultDecision: 'allow' },
      confirmationPolicy: { enabled: true, defaultTimeoutMs: 30000, timeoutAction: 'reject' },
    });
    const seen: AgentEvent[] = [];
    const answered: boolean[] = [];
    session.onEvent((event) => {
      seen.push(event);
      if (event.type === 'confirmation_required') {
        void session.pendingConfirmations().then(async (pending) => {
          for (const entry of pending) {
            expect(entry.toolName).toBe('bash');
            answered.push(await session.confirmToolUse(entry.toolId, false, 'not in this program'));
          }
        });
      }
    });
    const result = await session.program({
      source: `export default async function run(ctx) {
        const text = await ctx.readFile('a.txt');
        try {
          await ctx.bash('touch ran.txt');
          return { ran: true, text };
        } catch (error) {
          return { ran: false, text, error: error.name, kind: error.errorKind && error.errorKind.type };
        }
      }`,
    });
    expect(result.exitCode, result.output).toBe(0);
    const metadata = programMetadata(result);
    expect(metadata.script_result).toEqual({ ran: false, text: 'alpha\n', error: 'ToolCallError', kind: 'permission_denied' });
    expect(answered).toEqual([true]);
    expect(existsSync(join(h.dir, 'ran.txt'))).toBe(false);
    expect(metadata.program.tool_calls.map((call) => [call.tool_name, call.success])).toEqual([
      ['read', true],
      ['bash', false],
    ]);
    const required = seen.find((event) => event.type === 'confirmation_required');
    const programStart = seen.find((event) => event.type === 'tool_start' && event.toolName === 'program');
    expect(required?.toolName).toBe('bash');
    expect(seen.find((event) => event.type === 'tool_start' && event.toolName === 'bash')?.payload['parent_tool_id']).toBe(programStart?.payload['tool_id']);
    expect(await session.pendingConfirmations()).toEqual([]);
  });

  it('session.tool("batch", ...) runs read-only calls in parallel and reports a partial failure', async () => {
    h = await startHarness('anthropic', [], { 'src/lib.rs': 'struct PermissionPolicy;\n', 'src/config.rs': 'use PermissionPolicy;\n', 'README.md': '# demo\n' });
    const session = await h.agent.sessionAsync(h.dir);
    const result = await session.tool('batch', {
      invocations: [
        { tool: 'glob', args: { pattern: 'src/**/*.rs', sort: 'path' } },
        { tool: 'grep', args: { pattern: 'PermissionPolicy', output_mode: 'files_with_matches' }, id: 'hits' },
        { tool: 'read', args: { file_path: 'README.md' }, step: 'read the readme' },
        { tool: 'read', args: { file_path: 'MISSING.md' } },
      ],
      max_concurrency: 4,
    });
    expect(result.exitCode).toBe(0);
    expect(result.errorKind).toEqual({ type: 'partial_failure', failed: [3], total: 4 });
    const { batch } = JSON.parse(result.metadataJson ?? 'null') as BatchMetadata;
    expect(batch).toMatchObject({ total: 4, succeeded: 3, failed: [3], mode: 'parallel', concurrency: 4 });
    expect(batch.results.map((entry) => [entry.index, entry.id, entry.tool, entry.exit_code])).toEqual([
      [0, '0', 'glob', 0],
      [1, 'hits', 'grep', 0],
      [2, '2', 'read', 0],
      [3, '3', 'read', 1],
    ]);
    expect(result.output).toContain('src/config.rs\nsrc/lib.rs');
    expect(result.output).toContain('[2] read step="read the readme": ok\n     1\t# demo');
    expect(result.output).toContain('[3] read: failed (exit 1, not_found)');
  });
});

describe.each(PROTOCOLS)('model-driven program and batch over the %s wire protocol', (protocol) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('the model calls program inside stream(); nested tool events carry the program id as parent', async () => {
    h = await startHarness(
      protocol,
      [
        toolCallResponse('program', {
          type: 'script',
          language: 'javascript',
          source: SEARCH_AUTH,
          inputs: { query: 'PermissionPolicy' },
          allowed_tools: ['grep', 'glob', 'read'],
          limits: { timeoutMs: 30000, maxToolCalls: 30, maxOutputBytes: 65536 },
        }),
        textResponse('PermissionPolicy lives in crates/auth.'),
      ],
      RUST_WORKSPACE,
    );
    const session = await h.agent.sessionAsync(h.dir);
    const events = await collect(session, 'Where is PermissionPolicy?');
    const programStart = events.find((event) => event.type === 'tool_start' && event.toolName === 'program');
    const programEnd = events.find((event) => event.type === 'tool_end' && event.toolName === 'program');
    expect(programStart?.payload['origin']).toBe('agent');
    const programId = programStart?.payload['tool_id'];
    expect(programEnd?.payload['tool_id']).toBe(programId);
    expect(programEnd?.payload['exit_code']).toBe(0);
    const nestedStarts = events.filter((event) => event.type === 'tool_start' && event.payload['parent_tool_id'] !== undefined);
    const nestedEnds = events.filter((event) => event.type === 'tool_end' && event.payload['parent_tool_id'] !== undefined);
    expect(nestedStarts.length).toBeGreaterThan(5);
    expect(nestedEnds).toHaveLength(nestedStarts.length);
    for (const event of [...nestedStarts, ...nestedEnds]) {
      expect(event.payload['parent_tool_id']).toBe(programId);
      expect(event.metadata?.['parent_tool_id']).toBe(programId);
      expect(event.payload['origin']).toBe('nested');
    }
    const metadata = programEnd?.payload['metadata'] as ProgramMetadata;
    expect(metadata.program.tool_calls).toHaveLength(nestedStarts.length);
    expect((metadata.script_result as { summary: string }).summary).toBe('Found 3 candidate files for PermissionPolicy');
    // Nested events come before the program's own end, and the model saw the program's result.
    expect(events.indexOf(nestedEnds.at(-1)!)).toBeLessThan(events.indexOf(programEnd!));
    const fed = toolResultsOf(h.server.requests[1]!);
    expect(fed[0]?.content).toContain('Found 3 candidate files for PermissionPolicy');
    expect(events.at(-1)?.type).toBe('agent_end');
  });

  it('a model-driven program whose ctx.bash is denied at the confirmation prompt inside stream()', async () => {
    h = await startHarness(
      protocol,
      [
        toolCallResponse('program', {
          type: 'script',
          source: "export default async (ctx) => { try { await ctx.bash('touch ran.txt'); return 'ran' } catch (error) { return 'refused: ' + error.errorKind.type } }",
        }),
        textResponse('The command was refused.'),
      ],
    );
    const session = h.agent.session(h.dir, {
      permissionPolicy: { ask: ['bash*'], defaultDecision: 'allow' },
      confirmationPolicy: { enabled: true, defaultTimeoutMs: 30000, timeoutAction: 'reject' },
    });
    const events = await collect(session, 'run it', async (event) => {
      if (event.type !== 'confirmation_required') return;
      const pending = await session.pendingConfirmations();
      expect(pending.map((entry) => entry.toolName)).toEqual(['bash']);
      expect(await session.confirmToolUse(pending[0]!.toolId, false)).toBe(true);
    });
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['confirmation_required', 'confirmation_received']));
    const programEnd = events.find((event) => event.type === 'tool_end' && event.toolName === 'program');
    expect((programEnd?.payload['metadata'] as ProgramMetadata).script_result).toBe('refused: permission_denied');
    expect(existsSync(join(h.dir, 'ran.txt'))).toBe(false);
    expect(toolResultsOf(h.server.requests[1]!)[0]?.content).toContain('refused: permission_denied');
  });

  it('the model calls batch inside stream(); children are nested calls of the batch', async () => {
    h = await startHarness(
      protocol,
      [
        toolCallResponse('batch', {
          invocations: [
            { tool: 'read', args: { file_path: 'a.txt' } },
            { tool: 'write', args: { file_path: 'b.txt', content: 'beta\n' } },
            { tool: 'read', args: { file_path: 'b.txt' } },
          ],
        }),
        textResponse('Done.'),
      ],
      { 'a.txt': 'alpha\n' },
    );
    const session = await h.agent.sessionAsync(h.dir);
    const events = await collect(session, 'read a, write b, read b');
    const batchStart = events.find((event) => event.type === 'tool_start' && event.toolName === 'batch');
    const batchEnd = events.find((event) => event.type === 'tool_end' && event.toolName === 'batch');
    const batchId = batchStart?.payload['tool_id'];
    const children = events.filter((event) => event.type === 'tool_start' && event.payload['parent_tool_id'] === batchId);
    expect(children.map((event) => [event.toolName, event.payload['tool_id']])).toEqual([
      ['read', `${String(batchId)}.0`],
      ['write', `${String(batchId)}.1`],
      ['read', `${String(batchId)}.2`],
    ]);
    expect((batchEnd?.payload['metadata'] as BatchMetadata).batch).toMatchObject({ mode: 'serial', failed: [], succeeded: 3 });
    const fed = toolResultsOf(h.server.requests[1]!)[0]?.content ?? '';
    expect(fed).toContain('[0] read: ok\n     1\talpha');
    expect(fed).toContain('[2] read: ok\n     1\tbeta');
  });
});
