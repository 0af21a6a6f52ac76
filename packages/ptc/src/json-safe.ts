// Imports nothing: the VM worker (program-worker.ts) loads it, and the worker's module graph
// must stay free of workspace packages.

/**
 * JSON text of a value that came from outside the guest (a tool's result). `JSON.stringify` as
 * is when it can; otherwise BigInts become decimal strings and an object met again on the
 * current path becomes `"[Circular]"`, so a tool returning such metadata never fails the VM.
 * Functions and symbols are left out, as `JSON.stringify` does.
 */
export function jsonSafeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return JSON.stringify(toJsonSafe(value, new Set())) ?? 'null';
  }
}

function toJsonSafe(value: unknown, path: Set<object>): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null) return value;
  if (path.has(value)) return '[Circular]';
  const withToJson = value as { toJSON?: unknown };
  if (typeof withToJson.toJSON === 'function') return toJsonSafe((withToJson.toJSON as () => unknown).call(value), path);
  path.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => toJsonSafe(item, path) ?? null);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defineProperty, not assignment: a `__proto__` key stays a plain own key.
      Object.defineProperty(out, key, { value: toJsonSafe(item, path), enumerable: true, writable: true, configurable: true });
    }
    return out;
  } finally {
    path.delete(value);
  }
}
