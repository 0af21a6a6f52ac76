import { CodeError, defineTool } from '@a3s-lab/code-core';
import { canRunInParallel } from '@a3s-lab/code-core/kernel';
import type { FromJsonSchema, Tool, ToolContext, ToolOutput, ToolParametersSchema, ToolResult } from '@a3s-lab/code-core';
import { renderBatch } from './batch-render.js';
import type { BatchChildOutcome } from './batch-render.js';
import { invalidArgument } from './tool-support.js';

/** Most invocations of one `batch` call. */
export const MAX_BATCH_INVOCATIONS = 32;
/** Largest `max_concurrency`. */
export const MAX_BATCH_CONCURRENCY = 16;
/** `max_concurrency` when none is given. */
export const DEFAULT_BATCH_CONCURRENCY = 8;
/** Byte budget of the rendered batch output (summary, headers and every child's share). */
export const BATCH_MAX_OUTPUT_BYTES = 65536;

/** The JSON Schema of `batch`'s arguments: what the model sees and the kernel validates. */
const BATCH_PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['invocations'],
  properties: {
    invocations: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BATCH_INVOCATIONS,
      description: 'Calls, answered in this order.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['tool', 'args'],
        properties: {
          tool: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$', description: 'Tool name (not batch).' },
          args: { type: 'object', additionalProperties: true, description: 'Its arguments.' },
          id: { type: 'string', pattern: '^[A-Za-z0-9_:-]{1,64}$', description: 'Default the index.' },
          step: { type: 'string', minLength: 1, maxLength: 200, description: 'Label echoed in the output.' },
        },
      },
    },
    max_concurrency: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_BATCH_CONCURRENCY,
      description: `Default ${DEFAULT_BATCH_CONCURRENCY}.`,
    },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `batch`, read from its schema. */
type BatchArgs = FromJsonSchema<typeof BATCH_PARAMETERS>;
/** One call of a batch: a tool (any but another `batch`), its arguments (validated against that tool's schema), an id unique in the batch (default: the index) and a step label. */
type BatchInvocation = BatchArgs['invocations'][number];

const DESCRIPTION = [
  `Run up to ${MAX_BATCH_INVOCATIONS} independent tool calls (not batch) in one step; concurrently when all are read-only, else in order.`,
  'Results come in request order; metadata.batch.failed lists the failed indices to retry.',
].join(' ');

/**
 * Creates the `batch` tool: several tool calls in one invocation. Every child is a governed
 * nested call (`context.runtime.invoke`: validation, permission, confirmation, hooks, budget and
 * events with this call as parent). Children fan out (bounded by `max_concurrency` and their
 * own `maxParallelism`) only when every child's capabilities are read-only, idempotent and
 * cancellation-safe; otherwise they run serially in order. A batch inside a batch is rejected by
 * the kernel's recursion guard (that child fails, the others run).
 */
export function createBatchTool(): Tool<BatchArgs> {
  return defineTool({
    name: 'batch',
    description: DESCRIPTION,
    parameters: BATCH_PARAMETERS,
    orchestration: 'batch',
    // The batch cannot see its children's tools from its arguments alone, so it declares the
    // conservative default: it is never itself scheduled as a safe parallel call.
    capabilities: () => ({ outputKind: 'mixed' }),
    execute: executeBatch,
  });
}

/**
 * Failures after which no further child may start (the session's budget is spent, or it is
 * closing). The children that ran are still reported, so the caller knows which side effects
 * happened.
 */
function isHostError(error: unknown): boolean {
  return CodeError.hasCode(error, 'BUDGET_EXHAUSTED') || CodeError.hasCode(error, 'SESSION_CLOSED');
}

async function executeBatch(args: BatchArgs, context: ToolContext): Promise<ToolOutput> {
  const invocations = args.invocations;
  const ids = invocations.map((invocation, index) => invocation.id ?? String(index));
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== undefined) return invalidArgument(`batch ids must be unique: '${duplicate}' is used twice (an invocation without id uses its index)`);
  const runtime = context.runtime;
  const capabilities = invocations.map((invocation) => runtime.capabilities(invocation.tool, invocation.args));
  const concurrency = canRunInParallel(capabilities)
    ? Math.max(1, Math.min(args.max_concurrency ?? DEFAULT_BATCH_CONCURRENCY, invocations.length, ...capabilities.map((c) => c.maxParallelism)))
    : 1;

  const outcomes: (BatchChildOutcome | undefined)[] = new Array(invocations.length).fill(undefined);
  let stop: CodeError | undefined;
  const runChild = async (index: number): Promise<void> => {
    const invocation = invocations[index] as BatchInvocation;
    const id = ids[index] as string;
    const started = performance.now();
    let result: ToolResult;
    try {
      // The kernel ties every nested call to this call's signal anyway; passing it makes the
      // kernel derive a per-child signal (AbortSignal.any) instead of adding one abort listener
      // per running child to the batch's own signal (16 of them trip Node's listener warning).
      result = await runtime.invoke(invocation.tool, invocation.args, { abortSignal: context.abortSignal, id });
    } catch (error) {
      if (isHostError(error)) stop ??= error as CodeError;
      const message = error instanceof Error ? error.message : String(error);
      result = { name: invocation.tool, output: `Error: ${message}`, exitCode: 1 };
    }
    outcomes[index] = childOutcome(index, id, invocation, result, Math.round(performance.now() - started));
    context.emitOutputDelta(`[${index}] ${invocation.tool}: ${result.exitCode === 0 ? 'ok' : `failed (exit ${result.exitCode})`}\n`);
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < invocations.length && stop === undefined && !context.abortSignal.aborted) await runChild(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));

  const children = outcomes.map((outcome, index) => outcome ?? notStarted(index, ids[index] as string, invocations[index] as BatchInvocation, stop));
  const failed = children.filter((child) => child.result.exitCode !== 0).map((child) => child.index);
  const total = children.length;
  const mode = concurrency > 1 ? 'parallel' : 'serial';
  const summary =
    `batch: ${total} call${total === 1 ? '' : 's'} (${mode}${mode === 'parallel' ? `, up to ${concurrency} at once` : ''}), ${total - failed.length} succeeded` +
    (failed.length === 0 ? '' : `, ${failed.length} failed (indices ${failed.join(', ')}; retry only those)`);
  const rendered = renderBatch(children, summary, BATCH_MAX_OUTPUT_BYTES, (content) => context.storeArtifact(content));
  return {
    output: rendered.text,
    ...(failed.length === 0 ? {} : { exitCode: failed.length === total ? 1 : 0, errorKind: { type: 'partial_failure', failed, total } }),
    ...(rendered.artifacts.length === 0 ? {} : { artifacts: rendered.artifacts }),
    metadata: {
      batch: {
        total,
        succeeded: total - failed.length,
        failed,
        mode,
        concurrency,
        results: rendered.results,
        ...(stop === undefined ? {} : { stopped: { code: stop.code, message: stop.message } }),
      },
    },
  };
}

function childOutcome(index: number, id: string, invocation: BatchInvocation, result: ToolResult, durationMs: number): BatchChildOutcome {
  return { index, id, tool: invocation.tool, ...(invocation.step === undefined ? {} : { step: invocation.step }), result, durationMs };
}

/** The result of a child the batch never started: it was cancelled, or the budget ran out first. */
function notStarted(index: number, id: string, invocation: BatchInvocation, stop: CodeError | undefined): BatchChildOutcome {
  const result: ToolResult =
    stop === undefined
      ? { name: invocation.tool, output: 'not started: the batch was cancelled', exitCode: 1, errorKind: { type: 'cancelled', op: invocation.tool } }
      : { name: invocation.tool, output: `not started: ${stop.message}`, exitCode: 1 };
  return childOutcome(index, id, invocation, result, 0);
}
