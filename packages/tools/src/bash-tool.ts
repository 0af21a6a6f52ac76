import { defineTool, toolFailure } from '@a3s-lab/code-core';
import { maskCutSeams } from './cut-seams.js';
import { OutputStreamer } from './output-streamer.js';
import type { ExecResult, FromJsonSchema, Tool, ToolOutput, ToolParametersSchema } from '@a3s-lab/code-core';
import { mutatingCapabilities } from './tool-support.js';

/** Command deadline when no `timeout` is given, in ms. */
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
/** Largest accepted `timeout`, in ms. */
export const MAX_BASH_TIMEOUT_MS = 600_000;
/** Extra time the kernel grants beyond the command deadline, so the backend can kill and drain. */
export const BASH_KERNEL_MARGIN_MS = 5_000;
/**
 * Byte budget of the capture across stdout and stderr (head and tail kept by the backend). It is
 * larger than the kernel's inline bound (100 KiB) on purpose: the kernel inlines head + tail and
 * keeps the whole capture as an artifact the host can fetch.
 */
export const BASH_MAX_OUTPUT_BYTES = 1024 * 1024;

/** The JSON Schema of `bash`'s arguments: what the model sees and the kernel validates. */
const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['command'],
  properties: {
    command: { type: 'string', minLength: 1, maxLength: 65536, description: 'bash -c command line.' },
    timeout: { type: 'integer', minimum: 1, maximum: MAX_BASH_TIMEOUT_MS, description: `Milliseconds. Default ${DEFAULT_BASH_TIMEOUT_MS}.` },
    description: { type: 'string', maxLength: 1000, description: 'What it does, for the user.' },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `bash`, read from its schema. */
type BashArgs = FromJsonSchema<typeof PARAMETERS>;

/**
 * Creates the `bash` tool: runs a command with `bash -c` in the workspace root through the
 * backend's process runner (own process group, deadline covering pipe draining). The output
 * shows stdout, then stderr, labelled, with exact accounting of dropped bytes; `exitCode` is the
 * process exit code.
 */
export function createBashTool(): Tool<BashArgs> {
  return defineTool({
    name: 'bash',
    description:
      'Run a command with bash -c in the workspace root; returns stdout, stderr and the exit code. Long output keeps its start and end.',
    parameters: PARAMETERS,
    requires: ['exec'],
    capabilities: () => mutatingCapabilities(),
    permissionTarget: (args) => ({ kind: 'command', command: args.command }),
    timeoutMs: (args) => (args.timeout ?? DEFAULT_BASH_TIMEOUT_MS) + BASH_KERNEL_MARGIN_MS,
    async execute(args, context) {
      const { workspace, abortSignal } = context;
      if (workspace.exec === undefined) return toolFailure('this workspace cannot run commands', { type: 'unsupported', message: 'workspace has no exec capability' });
      const timeoutMs = args.timeout ?? DEFAULT_BASH_TIMEOUT_MS;
      // Live output for UIs as bounded tool_output_delta events; the result below is unchanged.
      const live = new OutputStreamer((text) => context.emitOutputDelta(text));
      try {
        const result = await workspace.exec({ command: args.command, timeoutMs, maxOutputBytes: BASH_MAX_OUTPUT_BYTES, abortSignal, onOutput: (_stream, text) => live.push(text) });
        return renderExec(result, timeoutMs);
      } finally {
        live.close();
      }
    },
  });
}

/** Formats a process result as the `bash` tool output (shared by hosts that run commands). */
export function renderExec(result: ExecResult, timeoutMs: number): ToolOutput {
  const parts: string[] = [];
  // The capture was cut before redaction could see it: mask what touches each cut.
  const stdout = maskCutSeams(result.stdout);
  const stderr = maskCutSeams(result.stderr);
  if (stdout.length > 0) parts.push(`stdout:\n${withNewline(stdout)}`);
  if (stderr.length > 0) parts.push(`stderr:\n${withNewline(stderr)}`);
  if (parts.length === 0) parts.push('(no output)\n');
  if (result.droppedBytes > 0) {
    parts.push(
      `[output truncated: ${result.droppedBytes} bytes dropped from the middle; the process wrote ${result.stdoutBytes} bytes to stdout and ${result.stderrBytes} bytes to stderr]\n`,
    );
  }
  const escaped = result.killedEscapedProcesses ?? [];
  if (escaped.length > 0) {
    parts.push(`[killed ${escaped.length} process(es) that had left the process group: ${escaped.map((p) => `${p.command} (pid ${p.pid})`).join(', ')}]\n`);
  }
  let exitCode: number;
  let errorKind: ToolOutput['errorKind'];
  if (result.timedOut) {
    exitCode = result.exitCode ?? 124;
    errorKind = { type: 'timeout', op: 'bash', duration_ms: timeoutMs };
    parts.push(`[timed out after ${timeoutMs} ms; the process group was killed]\n`);
  } else if (result.cancelled) {
    exitCode = result.exitCode ?? 130;
    errorKind = { type: 'cancelled', op: 'bash' };
    parts.push('[cancelled; the process group was killed]\n');
  } else {
    exitCode = result.exitCode ?? 128 + signalNumber(result.signal);
  }
  parts.push(`exit code: ${result.exitCode ?? 'none'}${result.signal === null ? '' : ` (signal ${result.signal})`}`);
  if ((result.timedOut || result.cancelled) && exitCode === 0) exitCode = 1;
  return {
    output: parts.join(''),
    exitCode,
    ...(errorKind === undefined ? {} : { errorKind }),
    metadata: {
      exit_code: result.exitCode,
      signal: result.signal,
      stdout_bytes: result.stdoutBytes,
      stderr_bytes: result.stderrBytes,
      dropped_bytes: result.droppedBytes,
      duration_ms: result.durationMs,
      timed_out: result.timedOut,
      cancelled: result.cancelled,
      ...(escaped.length === 0 ? {} : { killed_escaped_processes: escaped.map((p) => ({ pid: p.pid, command: p.command })) }),
    },
  };
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

const SIGNALS: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGPIPE: 13, SIGTERM: 15 };

function signalNumber(signal: string | null): number {
  return signal === null ? 1 : (SIGNALS[signal] ?? 1);
}
