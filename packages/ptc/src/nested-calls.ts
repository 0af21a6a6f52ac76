// Imports nothing at run time: the VM worker (program-worker.ts) loads it too.

/**
 * The tools one `ctx` call reaches, for the allow-list and the call count: the tool itself, or
 * for a `batch` each of its invocations' tools (a batch runs them as its own nested calls, so
 * without this a script allowed `batch` could reach any tool through it, and a batch of 32 calls
 * would count as one). `null` when a batch names a child tool that is not a string: such a call
 * is refused rather than guessed at.
 */
export function reachedTools(tool: string, args: Readonly<Record<string, unknown>>): readonly string[] | null {
  if (tool !== 'batch') return [tool];
  const invocations = args['invocations'];
  // Not a batch the tool would run (its schema wants an array of invocations): the kernel's
  // validation refuses it; it still counts as one call.
  if (!Array.isArray(invocations) || invocations.length === 0) return [tool];
  const tools: string[] = [];
  for (const invocation of invocations as readonly unknown[]) {
    const name = typeof invocation === 'object' && invocation !== null ? (invocation as Record<string, unknown>)['tool'] : undefined;
    if (typeof name !== 'string') return null;
    tools.push(name);
  }
  return tools;
}
