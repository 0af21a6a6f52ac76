import type { Context, Span, Tracer } from '@opentelemetry/api';
import type { LlmUsage, SecurityProvider, TelemetryOptions } from '@a3s-lab/code-core';
import { CallTrace } from './call-trace.js';
import * as A from './gen-ai-attributes.js';
import { hostRegisteredOpenTelemetry, loadOtelApi, otelApi, SPAN_KIND_INTERNAL, SPAN_STATUS_ERROR } from './otel-api.js';
import { resolveInstruments, resolveTracer } from './telemetry-providers.js';
import type { KernelTelemetry, ToolTrace, TracedCall } from '@a3s-lab/code-core/kernel';
import type { OtelApi } from './otel-api.js';
import type { TelemetryInstruments } from './telemetry-providers.js';

const NO_SCOPE = Object.freeze({ parent: null, tracer: null, instruments: null });

/** Who the session's spans describe. */
export interface SessionTelemetryInit {
  readonly sessionId: string;
  /** `gen_ai.agent.name`: the subagent's name, or `a3s-code` for a top-level session. */
  readonly agentName: string;
  readonly provider: string;
  readonly model: string;
  readonly security: SecurityProvider;
  /** A child session's parent context (the `task` call that started it). */
  readonly parent?: Context;
}

/** The tracer and instruments of one run, or of one call outside runs. */
interface Sinks {
  readonly tracer: Tracer | null;
  readonly instruments: TelemetryInstruments | null;
}

/** The `invoke_agent` span of one run. */
export class RunTrace {
  readonly span: Span | null;
  readonly sinks: Sinks;
  /** Parent of the run's model and tool spans: the run, or a phase inside it (`plan`); `null` while the API is not loaded. */
  context: Context | null;

  constructor(span: Span | null, parent: Context | null, sinks: Sinks) {
    this.span = span;
    this.sinks = sinks;
    this.context = span === null || parent === null ? parent : otelApi()!.trace.setSpan(parent, span);
  }

  /** Runs `fn` inside an INTERNAL child span `name` (the planning phase: `plan`); its model calls are its children. */
  async phase<T>(name: string, attributes: Record<string, string>, fn: () => Promise<T>): Promise<T> {
    const tracer = this.sinks.tracer;
    const outer = this.context;
    if (tracer === null || this.span === null || outer === null) return fn();
    const api = otelApi()!;
    const span = tracer.startSpan(name, { kind: SPAN_KIND_INTERNAL, attributes }, outer);
    this.context = api.trace.setSpan(outer, span);
    try {
      return await api.context.with(this.context, fn);
    } catch (error) {
      span.setAttribute(A.ERROR_TYPE, errorTypeOf(error));
      span.setStatus({ code: SPAN_STATUS_ERROR, message: errorTypeOf(error) });
      throw error;
    } finally {
      this.context = outer;
      span.end();
    }
  }

  /** Ends the run: final status, usage totals, `error.type`. */
  end(status: string, usage: LlmUsage, errorCode?: string): void {
    const span = this.span;
    if (span === null) return;
    span.setAttributes({
      [A.A3S_RUN_STATUS]: status,
      [A.GEN_AI_USAGE_INPUT_TOKENS]: usage.inputTokens,
      [A.GEN_AI_USAGE_OUTPUT_TOKENS]: usage.outputTokens,
      [A.GEN_AI_USAGE_CACHE_READ_TOKENS]: usage.cacheReadTokens ?? 0,
      [A.GEN_AI_USAGE_CACHE_CREATION_TOKENS]: usage.cacheWriteTokens ?? 0,
    });
    if (errorCode !== undefined) {
      span.setAttribute(A.ERROR_TYPE, errorCode);
      span.setStatus({ code: SPAN_STATUS_ERROR, message: errorCode });
    }
    span.end();
  }
}

/**
 * A session's OpenTelemetry: the `invoke_agent` span of each run, the parent context of its
 * model calls, and the kernel's seam for `execute_tool` spans (nested calls under their parent's
 * span). Providers are resolved at each run start; with none registered nothing is built.
 */
export class SessionTelemetry implements KernelTelemetry {
  readonly captureContent: boolean;
  readonly security: SecurityProvider;
  /** Also the v1.36 attribute names (see {@link A.emitsLegacyGenAi}). */
  readonly legacyAttributes: boolean;
  readonly #options: TelemetryOptions;
  readonly #init: SessionTelemetryInit;
  #run: RunTrace | null = null;
  /** Recording `execute_tool` spans by call id: the parent of a subagent a call starts. */
  readonly #openCalls = new Map<string, CallTrace>();
  /** Their spans: a generation inside one of them (`generate_object`) is its child. */
  readonly #openSpans = new Set<Span>();

  private constructor(options: TelemetryOptions, init: SessionTelemetryInit) {
    this.#options = options;
    this.#init = init;
    this.captureContent = options.captureContent === true;
    this.security = init.security;
    this.legacyAttributes = A.emitsLegacyGenAi();
  }

  /** `null` when `telemetry.enabled` is false: the session then has no telemetry at all. */
  static create(options: TelemetryOptions | undefined, init: SessionTelemetryInit): SessionTelemetry | null {
    if (options?.enabled === false) return null;
    // The SDK has loaded the API already when anything can record; a core-only host gets it shortly.
    if (otelApi() === null && (options?.tracerProvider !== undefined || options?.meterProvider !== undefined || hostRegisteredOpenTelemetry())) void loadOtelApi().catch(() => undefined);
    return new SessionTelemetry(options ?? {}, init);
  }

  /** The options a child session inherits (providers and content capture). */
  get options(): TelemetryOptions {
    return this.#options;
  }

  /** Starts a run's `invoke_agent` span: a child of the host's active context (or the parent `task` call). */
  startRun(runId: string, kind: string, traceparent?: Context): RunTrace {
    const api = otelApi();
    const sinks = this.#sinks();
    const parent = api === null ? null : (traceparent ?? this.#init.parent ?? api.context.active());
    let span: Span | null = null;
    if (sinks.tracer !== null && parent !== null) {
      span = sinks.tracer.startSpan(
        `invoke_agent ${this.#init.agentName}`,
        {
          kind: SPAN_KIND_INTERNAL,
          attributes: {
            [A.GEN_AI_OPERATION_NAME]: 'invoke_agent',
            [A.GEN_AI_AGENT_NAME]: this.#init.agentName,
            [A.GEN_AI_CONVERSATION_ID]: this.#init.sessionId,
            ...A.providerAttributes(this.#init.provider, this.legacyAttributes),
            [A.GEN_AI_REQUEST_MODEL]: this.#init.model,
            [A.A3S_RUN_ID]: runId,
            [A.A3S_RUN_KIND]: kind,
          },
        },
        parent,
      );
      if (!span.isRecording()) {
        span.end();
        span = null;
      }
    }
    const run = new RunTrace(span, parent, { tracer: span === null ? null : sinks.tracer, instruments: sinks.instruments });
    this.#run = run;
    return run;
  }

  /** The run is over: later calls and generations are outside any run. */
  endRun(run: RunTrace): void {
    if (this.#run === run) this.#run = null;
  }

  /** Parent context and sinks of a model call now. */
  generationScope(): { readonly parent: Context | null; readonly tracer: Tracer | null; readonly instruments: TelemetryInstruments | null } {
    const run = this.#run;
    const api = otelApi();
    if (api === null) return NO_SCOPE;
    // Inside a tool of ours (generate_object), when a context manager tells us so: under its span.
    const active = this.#openSpans.size === 0 ? undefined : api.trace.getSpan(api.context.active());
    if (active !== undefined && this.#openSpans.has(active)) return { parent: api.context.active(), ...(run?.sinks ?? this.#sinks()) };
    if (run !== null) return { parent: run.context, ...run.sinks };
    return { parent: this.#init.parent ?? api.context.active(), ...this.#sinks() };
  }

  /** The context of a call in progress (a `task` call): the parent of the subagent run it starts. */
  contextOfCall(toolId: string): Context | undefined {
    const span = this.#openCalls.get(toolId)?.span;
    const api = otelApi();
    return span === null || span === undefined || api === null ? undefined : api.trace.setSpan(api.ROOT_CONTEXT, span);
  }

  startCall(call: TracedCall, parent: ToolTrace | null): ToolTrace | null {
    let sinks: Sinks;
    const run = this.#run;
    if (call.parentToolId !== undefined) {
      // Nested: under the parent call's span, or not traced when the parent is not.
      if (!(parent instanceof CallTrace)) return null;
      sinks = run?.sinks ?? this.#sinks();
    } else {
      // Host-direct calls (and calls between runs): the host's active context.
      sinks = run !== null && call.origin !== 'host-direct' ? run.sinks : this.#sinks();
    }
    if (sinks.tracer === null && sinks.instruments === null) return null;
    let span: Span | null = null;
    if (sinks.tracer !== null) {
      const parentContext = this.#callParent(otelApi()!, call, parent, run);
      span = sinks.tracer.startSpan(`execute_tool ${call.toolName}`, { kind: SPAN_KIND_INTERNAL, attributes: CallTrace.startAttributes(call), startTime: call.startedAtMs }, parentContext);
      if (!span.isRecording()) {
        span.end();
        span = null;
      }
    }
    if (span === null && sinks.instruments === null) return null;
    const traced = new CallTrace(call, span, sinks.instruments, this.security, this.captureContent, (ended) => {
      if (this.#openCalls.get(call.toolId) === ended) this.#openCalls.delete(call.toolId);
      if (ended.span !== null) this.#openSpans.delete(ended.span);
    });
    if (span !== null) {
      this.#openCalls.set(call.toolId, traced);
      this.#openSpans.add(span);
    }
    return traced;
  }

  #callParent(api: OtelApi, call: TracedCall, parent: ToolTrace | null, run: RunTrace | null): Context {
    if (call.parentToolId !== undefined) {
      const span = (parent as CallTrace).span;
      return span === null ? api.context.active() : api.trace.setSpan(api.ROOT_CONTEXT, span);
    }
    if (run !== null && run.context !== null && call.origin !== 'host-direct') return run.context;
    return this.#init.parent ?? api.context.active();
  }

  #sinks(): Sinks {
    return { tracer: resolveTracer(this.#options.tracerProvider), instruments: resolveInstruments(this.#options.meterProvider) };
  }
}

/** `error.type` of a thrown value: a CodeError's code, else the error's name. */
export function errorTypeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.length > 0) return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string' && name.length > 0) return name;
  }
  return '_OTHER';
}
