import { CodeError } from '@a3s-lab/code';
import type { AgentEvent, AgentEventOfType, AgentEventPayloadV1 } from '@a3s-lab/code';
import type { Style } from './ansi.js';
import { CURSOR, sanitizeTerminalText } from './ansi.js';
import type { CliOutput } from './cli-io.js';
import { costOf } from './pricing.js';
import type { RunRenderer, UsageTotals } from './run-renderer.js';
import { addUsage } from './run-renderer.js';
import { Spinner } from './spinner.js';
import { formatDiff, formatDuration, formatToolLine, keyArgument, oneLine, outputPreview } from './tool-summary.js';
import { displayWidth } from './display-width.js';

/** Options of {@link TerminalRenderer}. */
export interface TerminalRendererOptions {
  readonly out: CliOutput;
  readonly style: Style;
  /** Live mode: stream text, spinner, erase a retried turn's text. Default: `out.isTTY`. */
  readonly live?: boolean;
  /** `provider/model`, for the cost estimate. */
  readonly model: string;
  /**
   * Leave the final answer out when not live: the host prints it on stdout instead (stderr
   * then carries only the progress). The text of a turn that ends without a tool call is held
   * back and printed only if the run goes on (another turn) or fails. Default false.
   */
  readonly withholdAnswer?: boolean;
}

interface ToolState {
  readonly name: string;
  readonly args: unknown;
  readonly depth: number;
  deniedReason?: string;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The human output of a run (the host writes it to stderr). On a TTY assistant text streams
 * as it arrives and a retried turn's provisional text is erased and redrawn; elsewhere text is buffered per turn attempt
 * and printed once the attempt is final (its first tool call, or `turn_end`). Tool calls are one
 * line each; edits show their unified diff; a spinner with elapsed time runs while the model or
 * a tool works (TTY only).
 */
export class TerminalRenderer implements RunRenderer {
  readonly #out: CliOutput;
  readonly #style: Style;
  readonly #live: boolean;
  readonly #model: string;
  readonly #spinner: Spinner;
  readonly #tools = new Map<string, ToolState>();
  readonly #usage: UsageTotals = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  readonly #startedAt = Date.now();
  #turn = -1;
  /** Text of the current attempt of the current turn. */
  #attemptText = '';
  /** The attempt is final: no retry can replace it any more. */
  #attemptFinal = false;
  /** The current attempt requested a tool: its text is not the final answer. */
  #attemptHadTool = false;
  /** Text of a tool-less turn held back from stderr (see `withholdAnswer`). */
  #heldAnswer = '';
  readonly #withholdAnswer: boolean;
  #atLineStart = true;
  #turns = 0;
  #toolCalls = 0;

  constructor(options: TerminalRendererOptions) {
    this.#out = options.out;
    this.#style = options.style;
    this.#live = options.live ?? options.out.isTTY === true;
    this.#model = options.model;
    this.#withholdAnswer = options.withholdAnswer === true;
    this.#spinner = new Spinner((text) => this.#out.write(text), this.#style, () => this.#columns());
  }

  event(event: AgentEvent): void {
    switch (event.type) {
      case 'turn_start':
        this.#turnStart(event.turn, event.payload.reason);
        break;
      case 'text_delta':
        this.#text(event.text);
        break;
      case 'tool_start':
        this.#attemptHadTool = true;
        this.#finalizeAttempt();
        this.#tools.set(event.toolId, {
          name: event.toolName,
          args: event.payload.args,
          depth: event.payload.parent_tool_id === undefined && event.metadata?.parent_tool_id === undefined ? 0 : 1,
        });
        break;
      case 'tool_execution_start':
        this.#spin(() => {
          const tool = this.#tools.get(event.toolId);
          return `${this.#style.bold(sanitizeTerminalText(event.toolName))}  ${this.#style.cyan(keyArgument(event.toolName, tool?.args))}`;
        });
        break;
      case 'permission_denied': {
        const tool = this.#tools.get(event.toolId);
        if (tool !== undefined) tool.deniedReason = event.payload.reason ?? 'denied';
        break;
      }
      case 'tool_end':
        this.#toolEnd(event);
        break;
      case 'turn_end':
        this.#finalizeAttempt(true);
        addUsage(this.#usage, event.payload.usage);
        this.#turns = Math.max(this.#turns, event.turn);
        break;
      case 'confirmation_timeout':
        this.#line(this.#style.yellow(`! no answer for ${sanitizeTerminalText(event.toolName)} in time (${oneLine(event.payload.action ?? 'reject')})`));
        break;
      case 'task_updated':
        this.#plan(event.payload.plan);
        break;
      case 'context_compacted':
        this.#line(this.#style.dim(`· context compacted (${String(event.payload.before_tokens ?? '?')} -> ${String(event.payload.after_tokens ?? '?')} tokens)`));
        break;
      case 'budget_threshold_hit':
        this.#line(this.#style.yellow(`! budget: ${String(event.payload.kind)} at ${String(event.payload.used)}/${String(event.payload.limit)}`));
        break;
      case 'agent_end':
        this.#finalizeAttempt(true);
        // The run's answer goes to stdout (the host prints it), not here; a run that ended
        // without answer text keeps what it held on this stream.
        if ((event.text ?? '').length > 0) this.#heldAnswer = '';
        else this.#releaseHeldAnswer();
        this.#summary();
        break;
      case 'error':
        this.#error(event);
        break;
      default:
        // Unknown and purely informational events (reasoning, input deltas...) are not drawn.
        break;
    }
  }

  pause(): void {
    this.#spinner.stop();
    this.#endLine();
  }

  notice(text: string): void {
    this.#line(text);
  }

  close(): void {
    this.#spinner.stop();
  }

  // ---- text ---------------------------------------------------------------------------------

  #turnStart(turn: number, reason: string | undefined): void {
    if (turn === this.#turn && !this.#attemptFinal) {
      // A retried attempt: what the abandoned one streamed was provisional.
      if (this.#live) this.#erase(this.#attemptText);
      this.#attemptText = '';
      this.#attemptHadTool = false;
      this.#spin(() => this.#style.dim(`model stream interrupted${reason === undefined ? '' : ` (${oneLine(reason, 60)})`}, retrying`));
      return;
    }
    this.#finalizeAttempt();
    this.#releaseHeldAnswer();
    this.#turn = turn;
    this.#attemptText = '';
    this.#attemptHadTool = false;
    this.#attemptFinal = false;
    this.#spin(() => this.#style.dim('thinking'));
  }

  #text(raw: string): void {
    // Model text is untrusted too (a prompt injection can make it emit escape sequences).
    const text = sanitizeTerminalText(raw);
    if (text.length === 0) return;
    if (!this.#live) {
      this.#attemptText += text;
      return;
    }
    this.#spinner.stop();
    if (this.#attemptText.length === 0) this.#endLine();
    this.#attemptText += text;
    this.#write(text);
  }

  /**
   * The attempt can no longer be retried: print buffered text (non-live) and end its line.
   * `atTurnEnd`: the turn is over, so a tool-less attempt's text may be the final answer (held
   * back with `withholdAnswer`).
   */
  #finalizeAttempt(atTurnEnd = false): void {
    if (this.#attemptFinal) return;
    this.#attemptFinal = true;
    if (!this.#live && this.#attemptText.length > 0) {
      if (atTurnEnd && this.#withholdAnswer && !this.#attemptHadTool) this.#heldAnswer = this.#attemptText;
      else {
        this.#endLine();
        this.#write(this.#attemptText);
      }
    }
    this.#spinner.stop();
    this.#endLine();
  }

  /** Held text turned out not to be the answer (the run went on, or failed): print it. */
  #releaseHeldAnswer(): void {
    if (this.#heldAnswer.length === 0) return;
    const text = this.#heldAnswer;
    this.#heldAnswer = '';
    this.#endLine();
    this.#write(text);
    this.#endLine();
  }

  /** Erases `text`, which was written starting at column 0 and ends at the cursor. */
  #erase(text: string): void {
    this.#spinner.stop();
    if (text.length === 0) return;
    const columns = this.#columns();
    const rows = text.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil(displayWidth(line) / columns)), 0);
    this.#out.write(`\r${CURSOR.up(rows - 1)}${CURSOR.clearDown}`);
    this.#atLineStart = true;
  }

  #columns(): number {
    return this.#out.columns !== undefined && this.#out.columns > 0 ? this.#out.columns : 80;
  }

  // ---- tools --------------------------------------------------------------------------------

  #toolEnd(event: AgentEventOfType<'tool_end'>): void {
    const p = event.payload;
    const id = event.toolId;
    const tool = this.#tools.get(id) ?? { name: event.toolName, args: {}, depth: 0 };
    this.#tools.delete(id);
    if (tool.depth === 0) this.#toolCalls += 1;
    const errorKind = p.error_kind;
    const exitCode = event.exitCode;
    const denied = tool.deniedReason;
    this.#line(
      formatToolLine(
        {
          toolName: tool.name,
          args: tool.args,
          exitCode,
          durationMs: p.duration_ms,
          depth: tool.depth,
          ...(errorKind === undefined ? {} : { errorKind: errorKind.type }),
          ...(denied === undefined ? {} : { deniedReason: denied }),
        },
        this.#style,
      ),
    );
    const indent = `${'  '.repeat(tool.depth)}    `;
    const diff = str(p.metadata?.['diff']);
    if (exitCode === 0 && diff !== undefined && diff.length > 0) {
      this.#line(formatDiff(diff, this.#style, indent));
    } else if (tool.name === 'bash' && denied === undefined) {
      for (const line of outputPreview(p.output, exitCode === 0 ? 4 : 8)) this.#line(this.#style.dim(`${indent}${line}`));
    } else if (exitCode !== 0 && denied === undefined) {
      const first = p.output.split('\n').find((l) => l.trim().length > 0);
      if (first !== undefined) this.#line(this.#style.dim(`${indent}${oneLine(first, 160)}`));
    }
    if (this.#tools.size > 0 && this.#live) this.#spin(() => this.#style.dim('working'));
  }

  #plan(plan: AgentEventPayloadV1<'task_updated'>['plan']): void {
    const marks: Record<string, string> = { completed: this.#style.green('✓'), in_progress: this.#style.yellow('▸') };
    this.#line(this.#style.bold('plan'));
    for (const item of plan) {
      this.#line(`  ${marks[item.status] ?? '·'} ${oneLine(item.step, 200)}`);
    }
  }

  // ---- end of run ---------------------------------------------------------------------------

  /** `done in 4.2s · 6 turns · 5 tool calls · 10,549 in / 25 out tokens · ≈ $0.0320`. */
  #summary(prefix = 'done'): void {
    const u = this.#usage;
    const parts = [
      `${prefix} in ${formatDuration(Date.now() - this.#startedAt)}`,
      `${this.#turns} turn${this.#turns === 1 ? '' : 's'}`,
      `${this.#toolCalls} tool call${this.#toolCalls === 1 ? '' : 's'}`,
      `${u.inputTokens.toLocaleString('en-US')} in / ${u.outputTokens.toLocaleString('en-US')} out tokens${u.cacheReadTokens > 0 ? ` (${u.cacheReadTokens.toLocaleString('en-US')} cached)` : ''}`,
    ];
    const cost = costOf(this.#model, u);
    if (cost !== null) parts.push(`≈ $${cost < 0.01 ? cost.toFixed(4) : cost.toFixed(2)}`);
    this.#line(this.#style.dim(`── ${parts.join(' · ')}`));
  }

  #error(event: AgentEventOfType<'error'>): void {
    this.#finalizeAttempt();
    this.#releaseHeldAnswer();
    const details = event.payload.details;
    if (CodeError.isCancellation({ code: event.code, details })) {
      this.#line(this.#style.yellow('✗ cancelled'));
      this.#summary('cancelled');
      return;
    }
    const message = sanitizeTerminalText(`${event.code}: ${event.text}`);
    this.#line(this.#style.red(`✗ error ${message}`));
    this.#summary('failed');
  }

  // ---- low-level output ---------------------------------------------------------------------

  #spin(label: () => string): void {
    if (!this.#live || !this.#atLineStart) return;
    this.#spinner.start(label());
  }

  #endLine(): void {
    if (!this.#atLineStart) this.#write('\n');
  }

  #line(text: string): void {
    this.#spinner.stop();
    this.#endLine();
    this.#write(`${text}\n`);
  }

  #write(text: string): void {
    if (text.length === 0) return;
    this.#out.write(text);
    this.#atLineStart = text.endsWith('\n');
  }
}
