import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CodeError } from '@a3s-lab/code-core';
import type { Scenario, ScriptedResponse } from '../scenario/scripted-response.js';
import { flattenHeaders, parseJsonBody, readBody } from './read-body.js';
import type { RecordedRequest, WireProtocol } from './recorded-request.js';
import { respondError, respondScripted } from './respond-scripted.js';
import { isGone, writeJson } from './response-writer.js';

/** Options of {@link startScriptedModelServer}. */
export interface ScriptedModelServerOptions {
  /** Responses to serve. Default: an empty list (every model request gets a "scenario exhausted" error). */
  readonly scenario?: Scenario;
  /** TCP port on 127.0.0.1. Default 0 (an ephemeral port; read it from `url`). */
  readonly port?: number;
  /**
   * When set, model requests must carry this key (`x-api-key` or `Authorization: Bearer`), else
   * they get a 401 in the protocol's format. Default: any key (or none) is accepted.
   */
  readonly apiKey?: string;
  /** Model ids listed by `GET /v1/models`. Default `['scripted-model']`. */
  readonly models?: readonly string[];
}

/** A running scripted model server. */
export interface ScriptedModelServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The bound port. */
  readonly port: number;
  /** For `new Anthropic({ baseURL })`: the SDK appends `/v1/messages`. Same as `url`. */
  readonly anthropicBaseUrl: string;
  /** For `new OpenAI({ baseURL })`: `<url>/v1`. */
  readonly openaiBaseUrl: string;
  /** Every request received, in arrival order (live view; model, listing and rejected requests alike). */
  readonly requests: readonly RecordedRequest[];
  /**
   * Scenario problems the server met: an exhausted list, a scenario function that threw, a
   * fault that cannot apply. Each also answered the request with a non-retryable error; assert
   * this is empty at the end of a test. CodeError `CONFIG_ERROR`, details say which request.
   */
  readonly errors: readonly CodeError[];
  /** Replaces the scenario and restarts its consumption at index 0 (recorded requests are kept). */
  setScenario(scenario: Scenario): void;
  /** Scripted responses not consumed yet; `Infinity` for a scenario function. */
  remaining(): number;
  /** Forgets the recorded requests and errors (long benchmark sessions). */
  clearRequests(): void;
  /** Drops open and hanging connections and stops listening. Idempotent. */
  close(): Promise<void>;
}

const MODEL_PATHS: Readonly<Record<string, WireProtocol>> = {
  '/v1/messages': 'anthropic',
  '/v1/chat/completions': 'openai',
};

function validateOptions(options: ScriptedModelServerOptions): void {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CodeError('CONFIG_ERROR', 'port must be an integer in 0..65535', { details: { field: 'port', value: port } });
  }
  validateScenario(options.scenario ?? []);
}

function validateScenario(scenario: unknown): asserts scenario is Scenario {
  if (!Array.isArray(scenario) && typeof scenario !== 'function') {
    throw new CodeError('CONFIG_ERROR', 'scenario must be an array of scripted responses or a function', {
      details: { field: 'scenario', type: typeof scenario },
    });
  }
}

/** Which protocol a request speaks: by path for model calls, by headers otherwise. */
function protocolOf(path: string, headers: Readonly<Record<string, string>>): WireProtocol {
  const byPath = MODEL_PATHS[path];
  if (byPath !== undefined) return byPath;
  if (path.startsWith('/v1/messages')) return 'anthropic';
  return headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined ? 'anthropic' : 'openai';
}

function presentedKey(headers: Readonly<Record<string, string>>): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(headers['authorization'] ?? '');
  return headers['x-api-key'] ?? bearer?.[1];
}

function modelList(protocol: WireProtocol, models: readonly string[]): unknown {
  if (protocol === 'anthropic') {
    const data = models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
    return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
  }
  return { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'a3s-scripted' })) };
}

/**
 * Starts an HTTP server on 127.0.0.1 that answers Anthropic Messages (`POST /v1/messages`,
 * streaming and not) and OpenAI Chat Completions (`POST /v1/chat/completions`, streaming and
 * not) with scripted responses, byte-compatible with what the official SDKs parse.
 *
 * @throws CodeError `CONFIG_ERROR` for invalid options, `IO_ERROR` when the port cannot be bound.
 */
export async function startScriptedModelServer(options: ScriptedModelServerOptions = {}): Promise<ScriptedModelServer> {
  validateOptions(options);
  const models = options.models ?? ['scripted-model'];
  let scenario: Scenario = options.scenario ?? [];
  let consumed = 0;
  let turn = 0;
  let requestCounter = 0;
  const requests: RecordedRequest[] = [];
  const errors: CodeError[] = [];
  const held = new Set<ServerResponse>();
  const closing = new AbortController();

  const report = (error: CodeError): void => {
    errors.push(error);
  };

  /** The next scripted response, or `undefined` when a list scenario is used up. */
  const nextIndex = (): number | undefined => {
    if (typeof scenario === 'function') return consumed++;
    return consumed < scenario.length ? consumed++ : undefined;
  };

  const handle = async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const rawBytes = await readBody(incoming);
    const receivedAtMs = Date.now();
    const path = (incoming.url ?? '/').split('?')[0] ?? '/';
    const headers = flattenHeaders(incoming.headers);
    const protocol = protocolOf(path, headers);
    const body = parseJsonBody(rawBytes);
    requestCounter += 1;
    const requestId = `req_scripted_${requestCounter}`;
    const responseHeaders = { 'request-id': requestId, 'x-request-id': requestId };
    const base = {
      protocol,
      method: incoming.method ?? 'GET',
      path,
      headers,
      body,
      rawBytes: new Uint8Array(rawBytes.buffer, rawBytes.byteOffset, rawBytes.byteLength),
      receivedAtMs,
      stream: (body as { stream?: unknown } | undefined)?.stream === true,
    };

    if (base.method === 'GET' && path === '/v1/models') {
      requests.push(base);
      writeJson(response, 200, modelList(protocol, models), responseHeaders);
      return;
    }
    if (base.method === 'POST' && path === '/v1/messages/count_tokens') {
      requests.push(base);
      writeJson(response, 200, { input_tokens: Math.max(1, Math.ceil(rawBytes.length / 4)) }, responseHeaders);
      return;
    }
    if (base.method !== 'POST' || MODEL_PATHS[path] === undefined) {
      requests.push(base);
      respondError(response, base, { status: 404, message: `scripted model server: no route ${base.method} ${path}` }, responseHeaders);
      return;
    }
    if (options.apiKey !== undefined && presentedKey(headers) !== options.apiKey) {
      requests.push(base);
      respondError(response, base, { status: 401 }, responseHeaders);
      return;
    }
    const fields = body as { model?: unknown; messages?: unknown } | undefined;
    if (typeof fields !== 'object' || fields === null || typeof fields.model !== 'string' || !Array.isArray(fields.messages)) {
      requests.push(base);
      respondError(response, base, { status: 400, message: 'body must be a JSON object with "model" (string) and "messages" (array)' }, responseHeaders);
      return;
    }

    const scenarioIndex = nextIndex();
    if (scenarioIndex === undefined) {
      requests.push(base);
      const length = Array.isArray(scenario) ? scenario.length : 0;
      report(new CodeError('CONFIG_ERROR', `scenario exhausted: all ${length} scripted responses were consumed`, {
        details: { requestIndex: requests.length - 1, path, scenarioLength: length },
      }));
      respondError(response, base, { status: 400, message: `scripted model server: scenario exhausted after ${length} responses`, shouldRetry: false }, responseHeaders);
      return;
    }
    const request: RecordedRequest = { ...base, scenarioIndex };
    requests.push(request);
    const currentTurn = turn;
    turn += 1;

    let scripted: ScriptedResponse | undefined;
    try {
      scripted = typeof scenario === 'function' ? await scenario(request, scenarioIndex) : scenario[scenarioIndex];
    } catch (error) {
      report(new CodeError('CONFIG_ERROR', 'scenario function threw', { details: { scenarioIndex }, cause: error }));
      respondError(response, request, { status: 500, message: 'scripted model server: scenario function threw', shouldRetry: false }, responseHeaders);
      return;
    }
    if (typeof scripted !== 'object' || scripted === null) {
      report(new CodeError('CONFIG_ERROR', 'scripted response must be an object', { details: { scenarioIndex, type: typeof scripted } }));
      respondError(response, request, { status: 500, message: 'scripted model server: invalid scripted response', shouldRetry: false }, responseHeaders);
      return;
    }
    await respondScripted(response, request, scripted, {
      turn: currentTurn,
      headers: responseHeaders,
      signal: closing.signal,
      hold: (open) => {
        held.add(open);
        open.once('close', () => held.delete(open));
      },
      report,
    });
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      report(new CodeError('INTERNAL_ERROR', 'scripted model server failed to answer', { cause: error }));
      if (!isGone(response) && !response.headersSent) writeJson(response, 500, { error: { message: 'internal error' } }, {});
      else response.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => {
      reject(new CodeError('IO_ERROR', 'scripted model server could not listen', { details: { port: options.port ?? 0 }, cause: error }));
    };
    server.once('error', onError);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', onError);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | undefined;

  return {
    url,
    port,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    requests,
    errors,
    setScenario(next: Scenario): void {
      validateScenario(next);
      scenario = next;
      consumed = 0;
    },
    remaining(): number {
      return typeof scenario === 'function' ? Number.POSITIVE_INFINITY : scenario.length - consumed;
    },
    clearRequests(): void {
      requests.length = 0;
      errors.length = 0;
    },
    close(): Promise<void> {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        for (const open of held) open.destroy();
        held.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
