import type { Tool } from '@a3s-lab/code-core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createBatchTool } from './batch-tool.js';
import { toolsWithPrecompiledValidators } from './builtin-argument-validators-source.js';
import { createGitTool } from './git-tool.js';
import { createParallelTaskTool } from './parallel-task-tool.js';
import { createReadTool } from './read-tool.js';
import { createTaskTool } from './task-tool.js';
import { createUpdatePlanTool } from './update-plan-tool.js';

/** The arguments `execute` of a factory's tool takes. */
type ArgsOf<F> = F extends () => Tool<infer A> ? A : never;

/** What the model sees of a tool (name, description, schema) plus what the kernel reads off it. */
function surfaceOf(tool: ReturnType<typeof toolsWithPrecompiledValidators>[number]): unknown {
  const methods = (['capabilities', 'permissionTarget', 'escalate', 'confirmationNotice', 'timeoutMs'] as const).filter((method) => typeof tool[method] === 'function');
  return { name: tool.name, description: tool.description, parameters: tool.parameters, requires: tool.requires, orchestration: tool.orchestration, methods };
}

describe('tool definitions', () => {
  it('are byte for byte the recorded ones (test/fixtures/tool-definitions.json; a deliberate change: vitest run -u)', async () => {
    // The JSON text, so key order (part of the bytes sent, and of the precompiled validators'
    // keys) counts. Recorded before the tools moved to defineTool.
    await expect(`${JSON.stringify(toolsWithPrecompiledValidators().map(surfaceOf), null, 2)}\n`).toMatchFileSnapshot('../test/fixtures/tool-definitions.json');
  });

  it('type each tool\'s arguments from its schema (checked by the typecheck)', () => {
    expectTypeOf<ArgsOf<typeof createGitTool>['command']>().toEqualTypeOf<'status' | 'log' | 'diff' | 'branch' | 'checkout' | 'stash' | 'remote' | 'worktree'>();
    expectTypeOf<ArgsOf<typeof createReadTool>>().toEqualTypeOf<{
      file_path?: string;
      offset?: number;
      limit?: number;
      files?: { path: string; offset?: number; limit?: number }[];
      format?: 'numbered' | 'raw';
      max_output_bytes?: number;
    }>();
    expectTypeOf<ArgsOf<typeof createBatchTool>['invocations'][number]>().toEqualTypeOf<{ tool: string; args: Record<string, unknown>; id?: string; step?: string }>();
    expectTypeOf<ArgsOf<typeof createParallelTaskTool>['tasks'][number]>().toEqualTypeOf<ArgsOf<typeof createTaskTool>>();
    expectTypeOf<ArgsOf<typeof createUpdatePlanTool>['plan'][number]['status']>().toEqualTypeOf<'pending' | 'in_progress' | 'completed'>();
  });
});
