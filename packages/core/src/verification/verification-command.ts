/** One command of `session.verifyCommands()`. */
export interface VerificationCommand {
  readonly id: string;
  /** `test`, `lint`, `build`, `typecheck`... */
  readonly kind: string;
  readonly description: string;
  /** A shell command run in the workspace through the governed `bash` tool. */
  readonly command: string;
  /** Default true: a required check that does not pass fails the report. */
  readonly required?: boolean;
  /** Deadline of the command, ms (the bash tool's default otherwise). */
  readonly timeoutMs?: number;
}
