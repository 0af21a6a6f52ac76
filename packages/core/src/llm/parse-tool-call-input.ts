/**
 * Parses the accumulated argument JSON of a streamed tool call, for every provider adapter.
 * Never throws: invalid JSON, or JSON that is not an object, comes back as `invalidInput` (the raw
 * text) so the agent loop can hand the model an error result it can recover from. Empty text is
 * `{}`: a tool without parameters may stream no arguments at all.
 */
export function parseToolCallInput(json: string): { input: unknown; invalidInput?: string } {
  if (json.trim() === '') return { input: {} };
  try {
    const input: unknown = JSON.parse(json);
    if (typeof input === 'object' && input !== null && !Array.isArray(input)) return { input };
  } catch {
    // falls through to the invalid case
  }
  return { input: undefined, invalidInput: json };
}
