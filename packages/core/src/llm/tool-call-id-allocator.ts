/**
 * Keeps the tool-call ids of ONE model message unique. A server that repeats an id (`call_0`
 * for every call, a replayed block) would otherwise make one call overwrite the other: the
 * second and later uses of an id get a suffix (`call_0_dup2`), consistently in events, content
 * and the results sent back. Every provider adapter uses one allocator per streamed message.
 */
export class ToolCallIdAllocator {
  readonly #seen = new Set<string>();

  /** `id` the first time, a fresh `id_dupN` (also unseen) afterwards. */
  unique(id: string): string {
    let candidate = id;
    for (let n = 2; this.#seen.has(candidate); n += 1) candidate = `${id}_dup${n}`;
    this.#seen.add(candidate);
    return candidate;
  }
}
