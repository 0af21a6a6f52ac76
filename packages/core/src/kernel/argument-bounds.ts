/** Deepest nesting of objects and arrays accepted in tool arguments. */
export const MAX_ARGUMENT_DEPTH = 64;
/** Most values (objects, arrays, strings, numbers...) accepted in one call's arguments. */
export const MAX_ARGUMENT_NODES = 200_000;
/** Most UTF-16 code units of strings and keys accepted in one call's arguments (about 8 MiB of text). */
export const MAX_ARGUMENT_CHARS = 8 * 1024 * 1024;

/**
 * Why `args` exceed the argument bounds ({@link MAX_ARGUMENT_DEPTH}, {@link MAX_ARGUMENT_NODES},
 * {@link MAX_ARGUMENT_CHARS}), or `null` when they do not. Walks iteratively (an explicit stack,
 * never recursion), so a hostile depth cannot overflow the stack here, and stops at the first
 * bound crossed, so a cyclic or huge value costs at most the bounds.
 */
export function argumentBoundsProblem(args: unknown): string | null {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: args, depth: 0 }];
  let nodes = 0;
  let chars = 0;
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    nodes += 1;
    if (nodes > MAX_ARGUMENT_NODES) return `arguments hold more than ${MAX_ARGUMENT_NODES} values`;
    if (typeof value === 'string') {
      chars += value.length;
      if (chars > MAX_ARGUMENT_CHARS) return `arguments hold more than ${MAX_ARGUMENT_CHARS} characters of text`;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_ARGUMENT_DEPTH) return `arguments are nested deeper than ${MAX_ARGUMENT_DEPTH} levels`;
    if (Array.isArray(value)) {
      for (const item of value as unknown[]) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      chars += key.length;
      if (chars > MAX_ARGUMENT_CHARS) return `arguments hold more than ${MAX_ARGUMENT_CHARS} characters of text`;
      stack.push({ value: item, depth: depth + 1 });
    }
  }
  return null;
}
