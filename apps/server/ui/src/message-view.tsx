// One UI message: the user's prompt, or the assistant's parts in stream order (text as safe
// Markdown, reasoning folded, tool calls as cards, our data-* parts as small notes), and the
// run's end printed once, under the message, when it has ended.
import type { ReactNode } from 'react';
import type { UIMessage } from 'ai';
import { Markdown } from './markdown.js';
import { ToolCard } from './tool-card.js';
import type { AnswerApproval, AnyToolPart } from './tool-card.js';

type Part = UIMessage['parts'][number];

function isToolPart(part: Part): part is AnyToolPart {
  return part.type === 'dynamic-tool' || part.type.startsWith('tool-');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A plan (`data-plan`, `{ plan: [{ step, status }] }`): its steps with their status. */
function PlanNote({ data }: { readonly data: unknown }): ReactNode {
  const plan = isRecord(data) ? data['plan'] : data;
  const items = Array.isArray(plan) ? plan.filter(isRecord) : [];
  if (items.length === 0) return null;
  return (
    <div className="note plan">
      <strong>Plan</strong>
      <ul>
        {items.map((item, index) => (
          <li key={typeof item['id'] === 'string' ? item['id'] : index} data-status={String(item['status'] ?? '')}>
            {item['status'] === 'completed' ? '☑' : item['status'] === 'in_progress' ? '▸' : '☐'} {String(item['step'] ?? item['content'] ?? '')}
          </li>
        ))}
      </ul>
    </div>
  );
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A `data-notice` (`{ event: <v1 event type>, ...payload }`): errors in the error style, the rest as notes. */
function Notice({ data, toolIds }: { readonly data: unknown; readonly toolIds: ReadonlySet<string> }): ReactNode {
  if (!isRecord(data)) return null;
  const kind = text(data['event']) ?? text(data['kind']) ?? 'notice';
  // A denial of a call drawn as a card is already on that card.
  if (kind === 'permission_denied' && toolIds.has(String(data['tool_id']))) return null;
  if (kind === 'error' || kind === 'persistence_failed') {
    return (
      <p className="error" role="alert" data-kind={kind}>
        {text(data['code']) === null ? '' : `${String(data['code'])}: `}
        {text(data['message']) ?? text(data['error']) ?? kind}
      </p>
    );
  }
  if (kind === 'gap') return <p className="note" data-kind={kind}>Events before #{String(data['firstAvailableSequence'])} are no longer kept; this run is shown from there.</p>;
  const said = text(data['message']) ?? text(data['reason']) ?? text(data['summary']);
  const subject = text(data['tool_name']);
  return (
    <p className="note" data-kind={kind}>
      <span className="note-kind">{kind.replace(/_/g, ' ')}</span> {subject === null ? '' : `${subject}: `}
      {said ?? JSON.stringify(data).slice(0, 200)}
    </p>
  );
}

function summarize(data: unknown): string {
  if (typeof data === 'string') return data;
  if (!isRecord(data)) return JSON.stringify(data);
  for (const key of ['message', 'summary', 'description', 'status']) {
    const value = data[key];
    if (typeof value === 'string') return value;
  }
  return JSON.stringify(data).slice(0, 200);
}

/** A subagent (`data-subagent`, one part per task, replaced as it goes). */
function SubagentNote({ data }: { readonly data: unknown }): ReactNode {
  if (!isRecord(data)) return null;
  const agent = text(data['agent']) ?? 'subagent';
  const phase = text(data['phase']) ?? '';
  const what = text(data['description']) ?? text(data['prompt']) ?? '';
  const status = phase === 'end' ? (text(data['status']) ?? 'ended') : phase === 'start' ? 'started' : 'working';
  return (
    <p className="note subagent" data-kind="subagent" data-phase={phase}>
      <span className="note-kind">{agent}</span> {status}
      {what === '' ? '' : ` · ${what.slice(0, 160)}`}
    </p>
  );
}

/** The run's end as one line, from the message's metadata when the host sent it. */
export function runEndText(metadata: unknown): string {
  if (!isRecord(metadata)) return 'Run finished';
  const status = typeof metadata['status'] === 'string' ? metadata['status'] : typeof metadata['finishReason'] === 'string' ? metadata['finishReason'] : 'finished';
  const usage = isRecord(metadata['usage']) ? metadata['usage'] : null;
  const total = usage === null ? null : typeof usage['totalTokens'] === 'number' ? usage['totalTokens'] : typeof usage['inputTokens'] === 'number' && typeof usage['outputTokens'] === 'number' ? usage['inputTokens'] + usage['outputTokens'] : null;
  return `Run ${status}${total === null ? '' : ` · ${total.toLocaleString('en')} tokens`}`;
}

function PartView({ part, answer, toolIds }: { readonly part: Part; readonly answer: AnswerApproval; readonly toolIds: ReadonlySet<string> }): ReactNode {
  if (isToolPart(part)) return <ToolCard part={part} answer={answer} />;
  switch (part.type) {
    case 'text':
      return <Markdown text={part.text} />;
    case 'reasoning':
      return part.text.trim() === '' ? null : (
        <details className="reasoning">
          <summary>Reasoning</summary>
          <p>{part.text}</p>
        </details>
      );
    case 'source-url':
      return <p className="note">Source: {part.title ?? part.url}</p>;
    case 'step-start':
      return null;
    default:
      if (!part.type.startsWith('data-') || !('data' in part)) return null;
      if (part.type === 'data-plan') return <PlanNote data={part.data} />;
      if (part.type === 'data-notice') return <Notice data={part.data} toolIds={toolIds} />;
      if (part.type === 'data-subagent') return <SubagentNote data={part.data} />;
      return (
        <p className="note" data-kind={part.type.slice('data-'.length)}>
          <span className="note-kind">{part.type.slice('data-'.length)}</span> {summarize(part.data)}
        </p>
      );
      return null;
  }
}

/** One message of the conversation. `ended`: the run behind it has ended (print its end line). */
export function MessageView({ message, ended, answer }: { readonly message: UIMessage; readonly ended: boolean; readonly answer: AnswerApproval }): ReactNode {
  if (message.role === 'user') {
    const text = message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
    return (
      <div className="msg user" data-message-id={message.id}>
        <p>{text}</p>
      </div>
    );
  }
  const toolIds = new Set(message.parts.filter(isToolPart).map((part) => part.toolCallId));
  return (
    <div className="msg assistant" data-message-id={message.id}>
      {message.parts.map((part, index) => (
        <PartView key={isToolPart(part) ? part.toolCallId : `${part.type}.${index}`} part={part} answer={answer} toolIds={toolIds} />
      ))}
      {ended ? <p className="run-end" data-run-end="true">{runEndText(message.metadata)}</p> : null}
    </div>
  );
}
