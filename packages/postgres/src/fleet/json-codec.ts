/** JSON text of a journal value: bytes (tool attachments) survive as `{ "$bytes": base64 }`. */
export function encodeJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof Uint8Array ? { $bytes: Buffer.from(v).toString('base64') } : v));
}

/** The value {@link encodeJson} wrote (jsonb comes back parsed by the driver: pass it as is). */
export function decodeJson<T>(value: unknown): T {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.parse(text, (_key, v: unknown) => {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const bytes = (v as { $bytes?: unknown }).$bytes;
      if (typeof bytes === 'string' && Object.keys(v).length === 1) return new Uint8Array(Buffer.from(bytes, 'base64'));
    }
    return v;
  }) as T;
}
