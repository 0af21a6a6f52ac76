/** The Node modules a request of the safe client uses. */
export interface NodeTransports {
  readonly http: typeof import('node:http').request;
  readonly https: typeof import('node:https').request;
  /** Decoders of compressed bodies (`accept-encoding: gzip, deflate, br` is always sent). */
  readonly zlib: Pick<typeof import('node:zlib'), 'createBrotliDecompress' | 'createGunzip' | 'createInflate'>;
}

let loading: Promise<NodeTransports> | undefined;

/**
 * `node:http`, `node:https` (with TLS) and `node:zlib`, loaded by the first request rather than
 * at import: every SDK session creates a safe client, and loading them up front cost ~9 MB of
 * resident memory in a session that never fetched (the fix-the-bug benchmark).
 */
export function loadNodeTransports(): Promise<NodeTransports> {
  loading ??= Promise.all([import('node:http'), import('node:https'), import('node:zlib')]).then(([http, https, zlib]) => ({ http: http.request, https: https.request, zlib }));
  return loading;
}
