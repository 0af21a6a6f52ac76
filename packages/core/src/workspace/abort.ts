/** Creates the `AbortError` every backend call rejects with when its signal fires. */
export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const error = new DOMException('The operation was aborted', 'AbortError');
  if (reason !== undefined) Object.defineProperty(error, 'cause', { value: reason, enumerable: false });
  return error;
}

/** Throws an `AbortError` when `signal` is already aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw abortError(signal);
}
