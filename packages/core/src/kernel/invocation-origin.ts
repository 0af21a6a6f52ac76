/**
 * Who asked for a tool call:
 * - `agent`: the model, inside `send` / `stream`;
 * - `nested`: code running inside another tool (a `program`, a `batch`, a custom tool) through
 *   {@link InvocationRuntime} — judged exactly like a model call;
 * - `host-direct`: host code (`session.tool()`, `session.readFile()`...) — skips permission and
 *   confirmation by policy, keeps everything else;
 * - `verification`: a check of `session.verifyCommands()` — host code chose it, but it runs a
 *   shell command, so it is judged like a model call (permission, confirmation, hooks).
 */
export type InvocationOrigin = 'agent' | 'nested' | 'host-direct' | 'verification';
