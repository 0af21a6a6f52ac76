// Redact first, then bound: a secret straddling a cut (read's 2,000-character line cut, a read
// budget, grep's 500-character cut, bash's head/tail capture) must not leak its visible half.
import { DefaultSecurityProvider } from '@a3s-lab/code-core';
import { InvocationKernel, ToolRegistry } from '@a3s-lab/code-core/kernel';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { renderExec } from '../src/bash-tool.js';
import { createBuiltinTools } from '../src/index.js';
import type { LocalFixture } from './local-fixture.js';
import { createLocalFixture } from './local-fixture.js';

const PROVIDER_KEY = `sk-ant-api03-${'Z'.repeat(48)}`;
const KNOWN_SECRET = 'hunter2-known-secret-value-9f8e7d6c';

/** True when any 6-character piece of `secret` (after its first 3 characters) shows in `text`. */
function leaks(text: string, secret: string): boolean {
  for (let start = 3; start + 6 <= secret.length; start += 1) {
    const piece = secret.slice(start, start + 6);
    if (!/^Z+$/.test(piece) && text.includes(piece)) return true;
  }
  return secret.includes('ZZZZZZ') && text.includes('ZZZZZZ');
}

function kernelOver(files: Record<string, string>): InvocationKernel {
  return new InvocationKernel({
    sessionId: 'redact-before-cut',
    registry: new ToolRegistry(createBuiltinTools()),
    workspace: new MemoryWorkspaceBackend({ files }),
    emit: () => undefined,
    security: new DefaultSecurityProvider({ secretValues: [KNOWN_SECRET] }),
  });
}

describe('redaction happens before the tools cut text', () => {
  it.each([
    ['a provider key across read\'s 2,000-character line cut', PROVIDER_KEY, 1990],
    ['a known secret value across read\'s line cut', KNOWN_SECRET, 1995],
    ['a provider key ending right after the line cut', PROVIDER_KEY, 2000 - PROVIDER_KEY.length + 3],
  ])('%s', async (_name, secret, at) => {
    const kernel = kernelOver({ 'long.txt': `${'x'.repeat(at)} ${secret} ${'y'.repeat(100)}\n` });
    const result = await kernel.invoke({ toolName: 'read', args: { file_path: 'long.txt' }, origin: 'agent' });
    expect(leaks(result.output, secret)).toBe(false);
  });

  it.each([
    ['a provider key across the files-mode byte budget', PROVIDER_KEY],
    ['a known secret across the files-mode byte budget', KNOWN_SECRET],
  ])('%s', async (_name, secret) => {
    const lines = Array.from({ length: 40 }, (_, index) => `line ${index} ${secret} ${'w'.repeat(10)}`).join('\n');
    const kernel = kernelOver({ 'many.txt': `${lines}\n` });
    const result = await kernel.invoke({ toolName: 'read', args: { files: [{ path: 'many.txt' }], max_output_bytes: 1024 }, origin: 'agent' });
    expect(leaks(result.output, secret)).toBe(false);
  });

  it.each([
    ['a provider key across grep\'s 500-character cut', PROVIDER_KEY, 490],
    ['a known secret across grep\'s cut', KNOWN_SECRET, 495],
  ])('%s', async (_name, secret, at) => {
    const kernel = kernelOver({ 'min.js': `needle${'x'.repeat(at - 7)} ${secret} ${'y'.repeat(100)}\n` });
    const result = await kernel.invoke({ toolName: 'grep', args: { pattern: 'needle' }, origin: 'agent' });
    expect(result.output).toContain('min.js');
    expect(leaks(result.output, secret)).toBe(false);
  });
});

describe('bash head/tail capture', () => {
  let fixture: LocalFixture | undefined;
  afterEach(async () => {
    await fixture?.cleanup();
    fixture = undefined;
  });

  // The key is assembled by the command so the command text itself does not hold it.
  const key = `printf 'sk-ant-api03-%s' "$(printf 'Z%.0s' $(seq 48))"`;
  it.each([480, 490, 495, 500, 505])('a provider key printed at byte %i, across the head cut and the tail cut, is not shown in part', async (at) => {
    fixture = await createLocalFixture();
    const command = `head -c ${at} /dev/zero | tr '\\0' a; ${key}; head -c 5000 /dev/zero | tr '\\0' b; ${key}; head -c ${at} /dev/zero | tr '\\0' c`;
    const result = await fixture.backend.exec({ command, timeoutMs: 20_000, maxOutputBytes: 1000 });
    expect(result.droppedBytes).toBeGreaterThan(0);
    const rendered = renderExec(result, 20_000);
    const redacted = new DefaultSecurityProvider().redact(rendered.output);
    expect(redacted).not.toContain('sk-ant');
    expect(leaks(redacted, PROVIDER_KEY)).toBe(false);
  });
});
