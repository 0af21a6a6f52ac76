import type { AgentEvent } from '@a3s-lab/code';
import type { CliOutput } from './cli-io.js';
import type { RunRenderer } from './run-renderer.js';
import { toEnvelope } from './run-renderer.js';

/** Per-token event types that `--compact` leaves out. */
export const DELTA_EVENT_TYPES: ReadonlySet<string> = new Set(['text_delta', 'reasoning_delta', 'tool_input_delta', 'tool_output_delta']);

/**
 * `--json`: exactly one v1 envelope (`{version, type, payload, metadata}`) per line on stdout
 * and nothing else there; notices go to stderr.
 */
export class JsonRenderer implements RunRenderer {
  readonly #stdout: CliOutput;
  readonly #stderr: CliOutput;
  readonly #compact: boolean;

  /** `compact` (`--compact`) leaves out the {@link DELTA_EVENT_TYPES} lines. */
  constructor(stdout: CliOutput, stderr: CliOutput, options: { readonly compact?: boolean } = {}) {
    this.#stdout = stdout;
    this.#stderr = stderr;
    this.#compact = options.compact === true;
  }

  event(event: AgentEvent): void {
    if (this.#compact && DELTA_EVENT_TYPES.has(event.type)) return;
    this.#stdout.write(`${jsonLine(toEnvelope(event))}\n`);
  }

  pause(): void {}

  notice(text: string): void {
    this.#stderr.write(`${text}\n`);
  }

  close(): void {}
}

// U+2028 / U+2029 are valid inside JSON strings, but line readers such as Python's
// `str.splitlines` split on them: escaped, every object stays on exactly one line.
const LINE_SEPARATORS = /[\u2028\u2029]/g;

/**
 * `value` as one line of JSONL: {@link envelopeLine}, with U+2028 and U+2029 escaped so no line
 * reader sees two lines (the value parses back unchanged). No trailing newline.
 */
export function jsonLine(value: unknown): string {
  return envelopeLine(value).replace(LINE_SEPARATORS, (char) => (char === '\u2028' ? '\\u2028' : '\\u2029'));
}

/**
 * One envelope as a JSON line. Payloads normally are plain JSON; a custom tool's metadata may
 * still hold a BigInt or a cycle, which must not end a `--json` run: BigInts become decimal
 * strings and a reference back to an enclosing object becomes `"[Circular]"`.
 */
function envelopeLine(envelope: unknown): string {
  try {
    return JSON.stringify(envelope);
  } catch {
    // The objects on the path from the root to the value being written (the holder is `this`).
    const path: unknown[] = [];
    return JSON.stringify(envelope, function (this: unknown, _key: string, value: unknown) {
      if (typeof value === 'bigint') return value.toString();
      if (typeof value !== 'object' || value === null) return value;
      while (path.length > 0 && path[path.length - 1] !== this) path.pop();
      if (path.includes(value)) return '[Circular]';
      path.push(value);
      return value;
    });
  }
}
