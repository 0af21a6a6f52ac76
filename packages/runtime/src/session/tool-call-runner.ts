import type { InvocationKernel } from '@a3s-lab/code-core/kernel';
import { canRunInParallel } from '@a3s-lab/code-core/kernel';
import { READ_ONLY_TOOL_CAPABILITIES } from '@a3s-lab/code-core';
import type { ToolCapabilities, ToolResult } from '@a3s-lab/code-core';

/** One tool call requested by the model. */
export interface ToolCallRequest {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
  /** Raw text when the model's arguments were not valid JSON. */
  readonly invalidInput?: string;
  /** Set when the loop refuses the call without running it (duplicate-call guard). */
  readonly refusal?: string;
}

/**
 * Runs a model turn's tool calls through the kernel (origin `agent`). Consecutive calls whose
 * capabilities all allow it run concurrently; everything else runs one by one in order.
 * Results come back in request order.
 */
export class ToolCallRunner {
  readonly #kernel: InvocationKernel;
  readonly #concurrent: ReadonlySet<string>;

  /**
   * @param concurrentTools tools whose consecutive calls run concurrently even though they are
   *   not read-only (`task` under `autoParallel`: each call is its own child session).
   */
  constructor(kernel: InvocationKernel, concurrentTools: ReadonlySet<string> = new Set()) {
    this.#kernel = kernel;
    this.#concurrent = concurrentTools;
  }

  /**
   * Runs every request; rejects only when the kernel does (budget exhausted, session closed).
   * `onResult` hears each result as it settles, so a caller still knows which calls ran when the
   * batch rejects. A rejection comes only after every call already started has settled: no
   * tool keeps running after the batch has failed.
   */
  async runAll(requests: readonly ToolCallRequest[], signal: AbortSignal, onResult?: (index: number, result: ToolResult) => void): Promise<ToolResult[]> {
    const results: ToolResult[] = new Array<ToolResult>(requests.length);
    let index = 0;
    while (index < requests.length) {
      const group = [index];
      const caps: ToolCapabilities[] = [this.#capabilities(requests[index] as ToolCallRequest)];
      const first = requests[index] as ToolCallRequest;
      const concurrentKind = this.#isConcurrent(first) ? first.name : null;
      while (index + group.length < requests.length) {
        const next = requests[index + group.length] as ToolCallRequest;
        const nextCaps = this.#capabilities(next);
        const together = concurrentKind !== null ? this.#isConcurrent(next) && next.name === concurrentKind : canRunInParallel([...caps, nextCaps]);
        if (!together) break;
        caps.push(nextCaps);
        group.push(index + group.length);
      }
      const run = async (i: number, callSignal: AbortSignal): Promise<void> => {
        const result = await this.#runOne(requests[i] as ToolCallRequest, callSignal);
        results[i] = result;
        onResult?.(i, result);
      };
      if (group.length === 1) await run(index, signal);
      else {
        // One listener on the run's signal fans out to a signal per call, so a wide group does not
        // pile listeners onto the run signal (Node warns past 10).
        const controllers = new Map(group.map((i) => [i, new AbortController()]));
        const abortAll = (): void => {
          for (const controller of controllers.values()) controller.abort(signal.reason);
        };
        if (signal.aborted) abortAll();
        else signal.addEventListener('abort', abortAll, { once: true });
        try {
          const width = concurrentKind !== null ? group.length : Math.max(1, Math.min(...caps.map((c) => c.maxParallelism)));
          await runBounded(group, width, (i) => run(i, (controllers.get(i) as AbortController).signal));
        } finally {
          signal.removeEventListener('abort', abortAll);
        }
      }
      index += group.length;
    }
    return results;
  }

  #isConcurrent(request: ToolCallRequest): boolean {
    return this.#concurrent.has(request.name) && request.invalidInput === undefined && request.refusal === undefined;
  }

  #capabilities(request: ToolCallRequest): ToolCapabilities {
    if (request.invalidInput !== undefined || request.refusal !== undefined) {
      return READ_ONLY_TOOL_CAPABILITIES;
    }
    return this.#kernel.capabilities(request.name, request.args);
  }

  /** Every call goes through the kernel, refusals too: they get the same events, origin and lifecycle. */
  #runOne(request: ToolCallRequest, signal: AbortSignal): Promise<ToolResult> {
    const refusal =
      request.invalidInput !== undefined
        ? `invalid JSON in the arguments of ${request.name}: ${truncate(request.invalidInput, 200)}. Send the arguments again as one valid JSON object.`
        : request.refusal;
    return this.#kernel.invoke({
      toolName: request.name,
      args: request.invalidInput !== undefined ? {} : request.args,
      origin: 'agent',
      toolId: request.id,
      abortSignal: signal,
      ...(refusal === undefined ? {} : { refusal }),
    });
  }
}

/**
 * Runs `work` over `indices` with at most `width` at once. After a failure no new work starts,
 * and the first error is thrown only once every lane has settled (`Promise.all` would reject
 * while sibling calls were still running, leaving them to finish after the run had ended).
 */
async function runBounded(indices: readonly number[], width: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lanes = Array.from({ length: Math.min(width, indices.length) }, async () => {
    while (next < indices.length && failure === null) {
      const i = indices[next] as number;
      next += 1;
      try {
        await work(i);
      } catch (error) {
        failure ??= { error };
      }
    }
  });
  await Promise.all(lanes);
  if (failure !== null) throw (failure as { error: unknown }).error;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
