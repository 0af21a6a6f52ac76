// `--json`: stdout is JSONL of v1 envelopes and nothing else, validated against core's schema.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { agentEventJsonSchemaV1 } from '@a3s-lab/code-core';
import { errorResponse, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { Scenario } from '@a3s-lab/code-testing';
import { cleanEnv, runMain, scriptedRunFixture, writeWorkspaceConfig } from './cli-harness.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validate = ajv.compile(agentEventJsonSchemaV1 as object);

interface Envelope {
  version: number;
  type: string;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/** Every stdout line parsed and schema-checked; fails the test on the first bad line. */
function parseJsonl(stdout: string): Envelope[] {
  const lines = stdout.split('\n');
  expect(lines.at(-1)).toBe('');
  return lines.slice(0, -1).map((line, i) => {
    const value = JSON.parse(line) as Envelope;
    const ok = validate(value);
    expect(ok, `line ${i + 1} is not a v1 envelope: ${line}\n${JSON.stringify(validate.errors)}`).toBe(true);
    // Every line carries metadata, as the README promises.
    expect(Object.keys(value).sort()).toEqual(['metadata', 'payload', 'type', 'version']);
    expect(typeof value.metadata).toBe('object');
    return value;
  });
}

describe('a3s-code run --json', () => {
  const fixture = scriptedRunFixture();
  const workspaceFor = async (scenario: Scenario): Promise<{ dir: string; env: Record<string, string> }> => {
    const server = await fixture.start(scenario);
    const dir = fixture.tempDir('a3s-cli-json-', { 'notes.txt': 'one\ntwo\n' });
    const home = fixture.tempDir('a3s-cli-home-');
    writeWorkspaceConfig(dir, server, home);
    return { dir, env: cleanEnv(home) };
  };

  it('prints one valid envelope per line whose types follow the scripted scenario', async () => {
    const { dir, env } = await workspaceFor([
      toolCallResponse('bash', { command: 'echo hello' }, { text: 'Checking.' }),
      toolCallResponse('edit', { file_path: 'notes.txt', old_string: 'one', new_string: 'uno' }),
      textResponse(['Edited ', 'notes.txt.']),
    ]);
    const result = await runMain(['run', 'edit the notes', '--json', '--yes', '--workspace', dir], { env, cwd: dir });
    const events = parseJsonl(result.stdout);
    // Per-token lines (text, tool input, streamed tool output) depend on chunking: left out of the outline.
    const outline = events.filter((e) => !e.type.endsWith('_delta')).map((e) => e.type);
    expect(outline).toEqual([
      'agent_start',
      'turn_start', 'tool_start', 'confirmation_required', 'confirmation_received', 'tool_execution_start', 'tool_end', 'turn_end',
      'turn_start', 'tool_start', 'confirmation_required', 'confirmation_received', 'tool_execution_start', 'tool_end', 'turn_end',
      'turn_start', 'turn_end',
      'agent_end',
    ]);
    expect(events.filter((e) => e.type === 'text_delta').map((e) => e.payload['text']).join('')).toBe('Checking.Edited notes.txt.');
    const received = events.filter((e) => e.type === 'confirmation_received');
    expect(received.map((e) => e.payload['reason'])).toEqual(['approved by --yes', 'approved by --yes']);
    const edit = events.filter((e) => e.type === 'tool_end')[1]!;
    expect((edit.payload['metadata'] as Record<string, unknown>)['diff']).toContain('+uno');
    expect(events.every((e) => typeof e.metadata['sequence'] === 'number')).toBe(true);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('uno\ntwo\n');
    expect(result.code).toBe(0);
    expect(fixture.server()!.errors).toEqual([]);
  });

  it('reports a missing config as one error envelope with its stable code, exit 2', async () => {
    const ws = fixture.tempDir('a3s-cli-json-');
    const result = await runMain(['run', 'hello', '--json', '--workspace', ws], { env: cleanEnv(fixture.tempDir('a3s-cli-home-')), cwd: ws });
    const [error, ...rest] = parseJsonl(result.stdout);
    expect(rest).toEqual([]);
    expect(error?.type).toBe('error');
    expect(error?.payload['code']).toBe('CONFIG_ERROR');
    expect(result.stderr).toContain('a3s-code demo');
    expect(result.code).toBe(2);
  });

  it('ends a model failure with an LLM_ERROR envelope and exit 3', async () => {
    const { dir, env } = await workspaceFor([errorResponse(401, { message: 'invalid x-api-key' })]);
    const result = await runMain(['run', 'hello', '--json', '--workspace', dir], { env, cwd: dir });
    const events = parseJsonl(result.stdout);
    expect(events.at(-1)?.type).toBe('error');
    expect(events.at(-1)?.payload['code']).toBe('LLM_ERROR');
    expect(result.code).toBe(3);
  });

  it('rejects a bad flag with a CONFIG_ERROR envelope and exit 2', async () => {
    const result = await runMain(['run', 'x', '--json', '--permission-mode', 'sometimes'], { env: {}, cwd: process.cwd() });
    const [error] = parseJsonl(result.stdout);
    expect(error?.payload['code']).toBe('CONFIG_ERROR');
    expect(String(error?.payload['message'])).toContain('default, accept-edits, plan, yolo');
    expect(result.code).toBe(2);
  });
});
