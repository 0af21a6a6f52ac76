import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toolsWithPrecompiledValidators } from './builtin-argument-validators-source.js';

/** What the model sees of a tool (name, description, schema) plus what the kernel reads off it. */
function surfaceOf(tool: ReturnType<typeof toolsWithPrecompiledValidators>[number]): unknown {
  const methods = (['capabilities', 'permissionTarget', 'escalate', 'confirmationNotice', 'timeoutMs'] as const).filter((method) => typeof tool[method] === 'function');
  return { name: tool.name, description: tool.description, parameters: tool.parameters, requires: tool.requires, orchestration: tool.orchestration, methods };
}

describe('tool definitions', () => {
  it('are byte for byte the recorded ones (test/fixtures/tool-definitions.json: what the model was sent before the tools moved to defineTool)', () => {
    const recorded: unknown[] = JSON.parse(readFileSync(new URL('../test/fixtures/tool-definitions.json', import.meta.url), 'utf8'));
    const actual = toolsWithPrecompiledValidators().map(surfaceOf);
    // Key order is part of the bytes sent (and of the precompiled validators' keys): compare the JSON text.
    expect(actual.map((tool) => JSON.stringify(tool))).toEqual(recorded.map((tool) => JSON.stringify(tool)));
  });
});
