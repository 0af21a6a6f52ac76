/**
 * Process exit codes of `a3s-code`. They are part of the CLI's contract (scripts and CI branch
 * on them), so they never change meaning:
 *
 * - `0` the run completed and its last top-level tool call (if any) succeeded;
 * - `1` the run completed but its LAST top-level tool call failed (non-zero exit, denied,
 *   timed out), or the run ended with a non-model, non-configuration error (TOOL_ERROR such as
 *   the circuit breaker, BUDGET_EXHAUSTED, SESSION_ERROR such as maxToolRounds, INTERNAL_ERROR...);
 * - `2` usage or configuration error: bad flags, missing/broken config (CONFIG_ERROR,
 *   SESSION_CONFIGURATION_ERROR);
 * - `3` model error (LLM_ERROR: authentication, overload, network after retries);
 * - `130` cancelled (Ctrl-C).
 */
export const EXIT_CODES = Object.freeze({
  success: 0,
  toolFailure: 1,
  usage: 2,
  model: 3,
  cancelled: 130,
});

/** One of {@link EXIT_CODES}. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** Error codes that mean "fix your command line or config". */
const USAGE_CODES: ReadonlySet<string> = new Set(['CONFIG_ERROR', 'SESSION_CONFIGURATION_ERROR']);

/**
 * The exit code for a run that ended with the error `code`; `cancelled` is the error's
 * `details.cancelled` flag (a cancelled run ends with SESSION_ERROR + `cancelled: true`).
 */
export function exitCodeForError(code: string, cancelled = false): ExitCode {
  if (cancelled) return EXIT_CODES.cancelled;
  if (USAGE_CODES.has(code)) return EXIT_CODES.usage;
  if (code === 'LLM_ERROR') return EXIT_CODES.model;
  return EXIT_CODES.toolFailure;
}
