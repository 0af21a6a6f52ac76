/** Which wire protocol a request used, decided by its path. */
export type WireProtocol = 'anthropic' | 'openai';

/** One HTTP request the scripted model server received, exactly as it arrived. */
export interface RecordedRequest {
  /** Wire protocol of the endpoint (`/v1/messages` is Anthropic, `/v1/chat/completions` and `/v1/models` without Anthropic headers are OpenAI). */
  readonly protocol: WireProtocol;
  /** HTTP method. */
  readonly method: string;
  /** Request path without the query string, e.g. `/v1/messages`. */
  readonly path: string;
  /** Request headers, lower-case names; repeated headers are joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON body; `undefined` when the body was empty or not JSON. */
  readonly body: unknown;
  /** The body bytes as received. */
  readonly rawBytes: Uint8Array;
  /** `Date.now()` when the body was fully received. */
  readonly receivedAtMs: number;
  /** True when the body asked for a stream (`"stream": true`). */
  readonly stream: boolean;
  /**
   * Index of the model request in the current scenario (0-based) when the request consumed a
   * scripted response; `undefined` for requests that did not (listing models, rejected requests,
   * exhausted scenario).
   */
  readonly scenarioIndex?: number;
}
