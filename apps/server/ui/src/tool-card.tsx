// One tool call as a collapsible card, in the order things happened: what the model asked for,
// the approval (asked / approved / denied / timed out), then the result. A denied or timed-out
// call is drawn as such, never as a command that ran and failed.
import { useState } from 'react';
import type { ReactNode } from 'react';
import type { DynamicToolUIPart, ToolUIPart, UITools } from 'ai';
import { DiffView, looksLikeDiff } from './diff-view.js';

/** A tool part of a UI message (static `tool-<name>` or `dynamic-tool`). */
export type AnyToolPart = ToolUIPart<UITools> | DynamicToolUIPart;

const MAX_OUTPUT_CHARS = 8000;

/** What the card says about the call: one of these, from the part's state and approval. */
export type ToolOutcome = 'streaming' | 'running' | 'needs-approval' | 'answered' | 'done' | 'failed' | 'denied' | 'timed-out';

/** The tool's name (`tool-bash` -> `bash`). */
export function toolNameOf(part: AnyToolPart): string {
  return part.type === 'dynamic-tool' ? part.toolName : part.type.slice('tool-'.length);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const TIMEOUT = /timed? ?out|timeout|expired/i;

/** The card's outcome (a denial whose reason says it timed out is `timed-out`). */
export function toolOutcome(part: AnyToolPart): ToolOutcome {
  switch (part.state) {
    case 'input-streaming':
      return 'streaming';
    case 'input-available':
      return 'running';
    case 'approval-requested':
      return 'needs-approval';
    case 'approval-responded':
      return part.approval.approved ? 'answered' : TIMEOUT.test(part.approval.reason ?? '') ? 'timed-out' : 'denied';
    case 'output-available':
      return isRecord(part.output) && typeof part.output['exit_code'] === 'number' && part.output['exit_code'] !== 0 ? 'failed' : 'done';
    case 'output-error':
      return 'failed';
    case 'output-denied':
      return TIMEOUT.test(part.approval.reason ?? '') ? 'timed-out' : 'denied';
    default:
      return assertNever(part);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected tool part state ${JSON.stringify(value)}`);
}

/** A short line naming what the call acts on (command, path, pattern). */
export function inputSummary(input: unknown): string {
  if (!isRecord(input)) return '';
  for (const key of ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt']) {
    const value = input[key];
    if (typeof value === 'string' && value !== '') return value.length > 120 ? `${value.slice(0, 119)}…` : value;
  }
  return '';
}

function bounded(text: string): string {
  return text.length <= MAX_OUTPUT_CHARS ? text : `${text.slice(0, MAX_OUTPUT_CHARS)}\n… ${text.length - MAX_OUTPUT_CHARS} more characters`;
}

/** The output's text, its diff (metadata.diff or a diff-shaped output) and exit code. */
function readOutput(output: unknown): { text: string; diff: string | null; exitCode: number | null } {
  if (typeof output === 'string') return { text: output, diff: looksLikeDiff(output) ? output : null, exitCode: null };
  if (!isRecord(output)) return { text: output === undefined ? '' : JSON.stringify(output, null, 2), diff: null, exitCode: null };
  const text = typeof output['output'] === 'string' ? output['output'] : JSON.stringify(output, null, 2);
  const metadata = isRecord(output['metadata']) ? output['metadata'] : {};
  const diff = typeof metadata['diff'] === 'string' ? metadata['diff'] : typeof output['diff'] === 'string' ? output['diff'] : looksLikeDiff(text) ? text : null;
  const exitCode = typeof output['exit_code'] === 'number' ? output['exit_code'] : typeof output['exitCode'] === 'number' ? output['exitCode'] : null;
  return { text, diff, exitCode };
}

const BADGE: Record<ToolOutcome, string> = {
  streaming: 'preparing',
  running: 'running',
  'needs-approval': 'needs approval',
  answered: 'approved',
  done: 'done',
  failed: 'failed',
  denied: 'denied',
  'timed-out': 'timed out',
};

/** How the user answers an approval (shared by every tab: the answer lives in the session). */
export type AnswerApproval = (part: AnyToolPart, approved: boolean) => Promise<void>;

function ApprovalRow({ part, answer }: { readonly part: AnyToolPart; readonly answer: AnswerApproval }): ReactNode {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const click = (approved: boolean) => {
    setBusy(true);
    setError(null);
    answer(part, approved).then(
      () => setBusy(false),
      (reason: unknown) => {
        setBusy(false);
        setError(reason instanceof Error ? reason.message : String(reason));
      },
    );
  };
  return (
    <div className="approval" role="group" aria-label={`Approve ${toolNameOf(part)}?`}>
      <span className="approval-text">{toolNameOf(part)} needs your approval to run.</span>
      <button type="button" className="approve" disabled={busy} onClick={() => click(true)}>
        Approve
      </button>
      <button type="button" className="deny" disabled={busy} onClick={() => click(false)}>
        Deny
      </button>
      {error === null ? null : <span className="error-inline" role="alert">{error}</span>}
    </div>
  );
}

function approvalLine(part: AnyToolPart, outcome: ToolOutcome): ReactNode {
  if (part.approval === undefined || part.state === 'approval-requested') return null;
  // The host's own word for a plain answer ('approved', 'denied') adds nothing to the line.
  const reason = part.approval.reason === undefined || /^(approved|denied|rejected)$/i.test(part.approval.reason) ? undefined : part.approval.reason;
  if (outcome === 'timed-out') return <p className="approval-state timed-out">Approval timed out: not run{reason ? ` (${reason})` : ''}.</p>;
  if (outcome === 'denied') return <p className="approval-state denied">Denied: not run{reason ? ` (${reason})` : ''}.</p>;
  return <p className="approval-state approved">Approved{reason ? ` (${reason})` : ''}.</p>;
}

function Result({ part }: { readonly part: AnyToolPart }): ReactNode {
  if (part.state === 'output-error') return <pre className="output error-output">{bounded(part.errorText)}</pre>;
  if (part.state !== 'output-available') return null;
  const { text, diff, exitCode } = readOutput(part.output);
  // An edit's output is its summary line followed by the same diff: say the summary once.
  const rest = diff === null ? text : text.replace(diff.trim(), '').trim();
  return (
    <>
      {diff !== null && rest !== '' ? <p className="tool-said">{rest.length > 300 ? `${rest.slice(0, 299)}…` : rest}</p> : null}
      {diff !== null ? <DiffView text={diff} /> : null}
      {diff === null ? <pre className="output">{bounded(text) || '(no output)'}</pre> : null}
      {exitCode !== null && exitCode !== 0 ? <p className="exit">exit code {exitCode}</p> : null}
    </>
  );
}

/** What an edit asks to change, as a diff (`old_string` lines removed, `new_string` lines added), or null. */
export function editPreview(input: unknown): string | null {
  if (!isRecord(input) || typeof input['old_string'] !== 'string' || typeof input['new_string'] !== 'string') return null;
  const lines = (text: string, mark: string): string[] => (text === '' ? [] : text.replace(/\n$/, '').split('\n').map((line) => `${mark}${line}`));
  const file = typeof input['file_path'] === 'string' ? input['file_path'] : 'file';
  return [`--- ${file}`, `+++ ${file}`, ...lines(input['old_string'], '-'), ...lines(input['new_string'], '+')].join('\n');
}

function InputView({ input, compact }: { readonly input: unknown; readonly compact: boolean }): ReactNode {
  if (input === undefined || compact) return null;
  if (isRecord(input) && typeof input['command'] === 'string') return <pre className="input">$ {input['command']}</pre>;
  const preview = editPreview(input);
  if (preview !== null) return <DiffView text={preview} />;
  return <pre className="input">{JSON.stringify(input, null, 2)}</pre>;
}

/** A tool call card; open while it waits for approval. */
export function ToolCard({ part, answer }: { readonly part: AnyToolPart; readonly answer: AnswerApproval }): ReactNode {
  const outcome = toolOutcome(part);
  const name = toolNameOf(part);
  const [open, setOpen] = useState<boolean | null>(null);
  const hasDiff = part.state === 'output-available' && readOutput(part.output).diff !== null;
  // Open while it asks, when it failed, and when it changed a file (the diff is the point).
  const shown = open ?? (outcome === 'needs-approval' || outcome === 'failed' || hasDiff);
  const input = part.input;
  return (
    <details className={`tool ${outcome}`} data-tool-name={name} data-tool-call-id={part.toolCallId} data-state={part.state} data-outcome={outcome} open={shown} onToggle={(event) => {
        // Only the user's toggles are remembered (React setting `open` fires toggle too).
        if (event.currentTarget.open !== shown) setOpen(event.currentTarget.open);
      }}>
      <summary>
        <span className={`badge ${outcome}`}>{BADGE[outcome]}</span>
        <span className="tool-name">{name}</span>
        <span className="tool-summary">{inputSummary(input)}</span>
      </summary>
      <div className="tool-body">
        <InputView input={input} compact={hasDiff && open === null} />
        {part.state === 'approval-requested' ? <ApprovalRow part={part} answer={answer} /> : approvalLine(part, outcome)}
        <Result part={part} />
      </div>
    </details>
  );
}
