import type { AgentEvent } from '@a3s-lab/code';
import type { CliOutput } from './cli-io.js';
import type { RunRenderer } from './run-renderer.js';
import { toEnvelope } from './run-renderer.js';

/**
 * `--json`: exactly one v1 envelope (`{version, type, payload, metadata}`) per line on stdout
 * and nothing else there; notices go to stderr.
 */
export class JsonRenderer implements RunRenderer {
  readonly #stdout: CliOutput;
  readonly #stderr: CliOutput;

  constructor(stdout: CliOutput, stderr: CliOutput) {
    this.#stdout = stdout;
    this.#stderr = stderr;
  }

  event(event: AgentEvent): void {
    this.#stdout.write(`${JSON.stringify(toEnvelope(event))}\n`);
  }

  pause(): void {}

  notice(text: string): void {
    this.#stderr.write(`${text}\n`);
  }

  close(): void {}
}
