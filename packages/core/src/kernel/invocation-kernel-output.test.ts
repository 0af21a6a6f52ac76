import { describe, expect, it } from 'vitest';
import { makeKernel, recordingTool } from '../../test/kernel-kit.js';
import { ArtifactStore } from '../artifacts/artifact-store.js';
import { utf8ByteLength } from '../artifacts/utf8.js';
import { CodeError } from '../errors/code-error.js';
import { HostFailure } from '../errors/host-failure.js';
import { DefaultSecurityProvider } from '../security/security-provider.js';

describe('kernel output: redaction, bounds, events, error mapping', () => {
  it('redacts output, error messages and every event payload', async () => {
    const secret = 'my-literal-secret-value';
    const tool = recordingTool('leak', async (args, ctx) => {
      ctx.emitOutputDelta(`partial ${secret}\n`);
      if (args['text'] === 'throw') throw new Error(`failed using ${secret}`);
      return { output: `done AKIAIOSFODNN7EXAMPLE ${secret}`, metadata: { token: 'abc123' } };
    });
    const { kernel, events } = makeKernel([tool], { security: new DefaultSecurityProvider({ secretValues: [secret] }) });
    const ok = await kernel.invoke({ toolName: 'leak', args: { text: `arg ${secret}` }, origin: 'agent', toolId: 'r1' });
    expect(ok.output).toBe('done [REDACTED] [REDACTED]');
    expect(ok.metadata).toEqual({ token: '[REDACTED]' });
    const failed = await kernel.invoke({ toolName: 'leak', args: { text: 'throw' }, origin: 'agent', toolId: 'r2' });
    expect(failed.exitCode).toBe(1);
    expect(failed.output).toBe('Error: failed using [REDACTED]');
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(events.filter((e) => e.payload['tool_id'] === 'r1').map((e) => e.type)).toEqual(['tool_start', 'tool_execution_start', 'tool_output_delta', 'tool_end']);
    expect(events.find((e) => e.type === 'tool_output_delta')?.payload['delta']).toBe('partial [REDACTED]\n');
  });

  it('bounds inline output keeping head and tail with exact accounting; full output becomes an artifact', async () => {
    const big = `HEAD${'é'.repeat(3000)}${'x'.repeat(3000)}TAIL`;
    const tool = recordingTool('big', async () => ({ output: big }));
    const { kernel, events } = makeKernel([tool], { maxInlineOutputBytes: 1024 });
    const result = await kernel.invoke({ toolName: 'big', args: { text: 'a' }, origin: 'agent', toolId: 'b1' });
    expect(utf8ByteLength(result.output)).toBeLessThanOrEqual(1024);
    expect(result.output.startsWith('HEAD')).toBe(true);
    expect(result.artifacts).toEqual(['a3s://tool-output/big/b1']);
    const match = /^([\s\S]*)\n\[\.\.\. (\d+) bytes omitted \.\.\.\]\n([\s\S]*)\n\[full output: a3s:\/\/tool-output\/big\/b1\]$/.exec(result.output);
    expect(match).not.toBeNull();
    const [, head, omitted, tail] = match!;
    expect(tail!.endsWith('TAIL')).toBe(true);
    expect(utf8ByteLength(head!) + Number(omitted) + utf8ByteLength(tail!)).toBe(utf8ByteLength(big));
    expect(result.metadata?.['output_bounds']).toEqual({ total_bytes: utf8ByteLength(big), omitted_bytes: Number(omitted), max_inline_bytes: 1024, artifact: 'a3s://tool-output/big/b1' });
    expect(kernel.artifacts.get('a3s://tool-output/big/b1')?.content).toBe(big);
    expect(events.at(-1)?.payload['artifacts']).toEqual(['a3s://tool-output/big/b1']);
  });

  it('redacts before truncating, and evicts old artifacts FIFO', async () => {
    const secret = 'sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const tool = recordingTool('big', async (args) => ({ output: `${'a'.repeat(600)} ${secret} ${String(args['text']).repeat(600)}` }));
    const artifacts = new ArtifactStore({ maxArtifacts: 2 });
    const { kernel } = makeKernel([tool], { maxInlineOutputBytes: 400, artifacts });
    const uris: string[] = [];
    for (const text of ['x', 'y', 'z']) {
      const result = await kernel.invoke({ toolName: 'big', args: { text }, origin: 'agent', toolId: `id-${text}` });
      expect(result.output).not.toContain('sk-ant-api03-ABCDEF');
      uris.push(result.artifacts![0]!);
    }
    expect(artifacts.get(uris[0]!)).toBeNull();
    expect(artifacts.list().map((a) => a.uri)).toEqual(uris.slice(1));
    expect(artifacts.get(uris[2]!)?.content).toContain('[REDACTED]');
    expect(artifacts.get(uris[2]!)?.content).not.toContain(secret);
  });

  it('output larger than the whole artifact store is kept bounded and flagged', async () => {
    const tool = recordingTool('huge', async () => ({ output: 'q'.repeat(5000) }));
    const { kernel } = makeKernel([tool], { maxInlineOutputBytes: 300, artifacts: new ArtifactStore({ maxBytes: 1000 }) });
    const result = await kernel.invoke({ toolName: 'huge', args: { text: 'a' }, origin: 'agent' });
    expect(result.metadata?.['output_bounds']).toMatchObject({ artifact_truncated: true, total_bytes: 5000 });
    const artifact = kernel.artifacts.get(result.artifacts![0]!)!;
    expect(utf8ByteLength(artifact.content)).toBeLessThanOrEqual(1000);
    // Marked in the artifact, and the model is not told it has the full output.
    expect(artifact).toMatchObject({ truncated: true, originalBytes: 5000, bytes: utf8ByteLength(artifact.content) });
    expect(result.metadata?.['output_bounds']).toMatchObject({ artifact_bytes: artifact.bytes });
    expect(result.output).not.toContain('[full output:');
    expect(result.output).toContain(`[partial output: ${artifact.uri} holds ${artifact.bytes} of 5000 bytes (artifactStoreLimits.maxBytes 1000)`);
    // A tool's own storeArtifact does not fail the tool either: it keeps a marked, bounded copy.
    const storing = recordingTool('stores', async (_args, context) => ({ output: context.storeArtifact('z'.repeat(3000)) }));
    const second = makeKernel([storing], { artifacts: new ArtifactStore({ maxBytes: 1000 }) });
    const stored = await second.kernel.invoke({ toolName: 'stores', args: { text: 'a' }, origin: 'agent' });
    expect(stored.exitCode).toBe(0);
    expect(second.kernel.artifacts.get(stored.output)).toMatchObject({ truncated: true, originalBytes: 3000 });
  });

  it('maps thrown errors to typed error kinds', async () => {
    const errors: Record<string, unknown> = {
      notfound: new HostFailure('NotFound', 'gone', { path: 'a.txt' }),
      conflict: new HostFailure('Conflict', 'stale', { path: 'b.txt', details: { expected: 'v1', actual: 'v2' } }),
      security: new CodeError('SECURITY_ERROR', 'outside workspace'),
      declared: new CodeError('TOOL_ERROR', 'slow down', { details: { errorKind: { type: 'rate_limited', retry_after_ms: 5 } } }),
      plain: 'just a string',
    };
    const tool = recordingTool('thrower', async (args) => {
      throw errors[String(args['text'])];
    });
    const { kernel } = makeKernel([tool]);
    const kind = async (text: string) => (await kernel.invoke({ toolName: 'thrower', args: { text }, origin: 'agent' })).errorKind;
    expect(await kind('notfound')).toEqual({ type: 'not_found', path: 'a.txt' });
    expect(await kind('conflict')).toEqual({ type: 'version_conflict', path: 'b.txt', expected: 'v1', actual: 'v2' });
    expect(await kind('security')).toEqual({ type: 'permission_denied', reason: 'outside workspace' });
    expect(await kind('declared')).toEqual({ type: 'rate_limited', retry_after_ms: 5 });
    expect(await kind('plain')).toBeUndefined();
    const plain = await kernel.invoke({ toolName: 'thrower', args: { text: 'plain' }, origin: 'agent' });
    expect(plain).toMatchObject({ exitCode: 1, output: 'Error: just a string', name: 'thrower' });
  });

  it('reports capabilities with a conservative default', () => {
    const { kernel } = makeKernel([recordingTool('r', undefined, { capabilities: () => ({ readOnly: true }) })]);
    expect(kernel.capabilities('r', { text: 'a' }).readOnly).toBe(true);
    expect(kernel.capabilities('r', { text: 'a' }).maxParallelism).toBe(1);
    expect(kernel.capabilities('missing', {}).readOnly).toBe(false);
  });
});
