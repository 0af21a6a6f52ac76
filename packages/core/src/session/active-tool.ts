/** A tool call running right now. */
export interface ActiveTool {
  readonly toolId: string;
  readonly toolName: string;
  readonly origin: string;
  readonly parentToolId?: string;
  readonly startedAtMs: number;
  readonly elapsedMs: number;
}
