import { argumentBoundsProblem, MAX_ARGUMENT_CHARS } from '../kernel/argument-bounds.js';

/**
 * Parses the accumulated argument JSON of a streamed tool call, for every provider adapter.
 * Never throws: invalid JSON, or JSON that is not an object, comes back as `invalidInput` (the raw
 * text) so the agent loop can hand the model an error result it can recover from. Empty text is
 * `{}`: a tool without parameters may stream no arguments at all. Arguments past the kernel's
 * bounds (`MAX_ARGUMENT_DEPTH`, `MAX_ARGUMENT_NODES`, `MAX_ARGUMENT_CHARS`) are invalid too.
 */
export function parseToolCallInput(json: string): { input: unknown; invalidInput?: string } {
  if (json.trim() === '') return { input: {} };
  // Text past the bounds is refused unparsed; a deep value never reaches the loop, its
  // duplicate-call guard or history (all of which walk arguments recursively).
  if (json.length > MAX_ARGUMENT_CHARS * 2) return { input: undefined, invalidInput: json.slice(0, 1024) };
  try {
    const input: unknown = JSON.parse(json);
    if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
      return argumentBoundsProblem(input) === null ? { input } : { input: undefined, invalidInput: json.slice(0, 1024) };
    }
  } catch {
    // falls through to the invalid case
  }
  return { input: undefined, invalidInput: json };
}
