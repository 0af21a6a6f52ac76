// The UI's calls to the host's JSON API: every request carries the bearer token; a failure is an
// ApiError with the server's stable code (or HTTP_ERROR / NETWORK_ERROR when it sent none).

/** A failed API call: the server's `{ error: { code, message } }`, or what went wrong on the way. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(code: string, message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
  }
}

/** One session as the list shows it (`GET /api/sessions`). */
export interface SessionSummary {
  readonly id: string;
  readonly updatedAtMs: number;
  readonly workspace?: string;
  readonly title?: string;
  readonly running?: boolean;
  readonly runningRunId?: string | null;
}

/** `GET /api/config`. */
export interface HostConfig {
  readonly workspaceRoots: readonly string[];
  /** The agent's default model (`scripted/demo` in the demo). */
  readonly model?: string;
}

/** A run record (`GET /api/sessions/:id/runs`), the fields the UI reads. */
export interface RunSummary {
  readonly id: string;
  readonly status: string;
  readonly prompt: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The error of a non-2xx response (reads its body). */
export async function errorOf(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  const error = isRecord(body) && isRecord(body['error']) ? body['error'] : {};
  const code = typeof error['code'] === 'string' ? error['code'] : 'HTTP_ERROR';
  const message = typeof error['message'] === 'string' ? error['message'] : `HTTP ${response.status}`;
  return new ApiError(code, message, response.status);
}

/** `fetch` of an API path with the token; throws ApiError for a non-2xx answer. */
export async function apiFetch(token: string, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('NETWORK_ERROR', 'the server did not answer (is it still running?)', 0);
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}

/** JSON body of a GET. */
export async function getJson<T>(token: string, path: string): Promise<T> {
  return (await (await apiFetch(token, path)).json()) as T;
}

/** JSON body of a POST of `body`. */
export async function postJson<T>(token: string, path: string, body: unknown = {}): Promise<T> {
  return (await (await apiFetch(token, path, { method: 'POST', body: JSON.stringify(body) })).json()) as T;
}

/** `/api/sessions/<id>` with the id encoded. */
export function sessionPath(id: string, rest = ''): string {
  return `/api/sessions/${encodeURIComponent(id)}${rest}`;
}

/** Message of any thrown value, with the server's code in front when there is one. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}
