/**
 * Tool-call arguments as the event schema has them (`tool_start.args`,
 * `confirmation_required.args`): an object, `{}` for input that was not one (argument
 * validation reports that input to the model).
 */
export function eventArgs(args: unknown): Record<string, unknown> {
  return typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}
