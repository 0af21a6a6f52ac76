// The sessions of this host, newest first: title (the first prompt), workspace, time, and a dot
// while a run is running. A session is opened by its URL (`/sessions/<id>`).
import type { ReactNode } from 'react';
import type { SessionSummary } from './api.js';
import { relativeTime } from './relative-time.js';

function basename(path: string): string {
  const trimmed = path.replace(/[/\\]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1) || trimmed;
}

/** Props of {@link SessionList}. */
export interface SessionListProps {
  readonly sessions: readonly SessionSummary[] | null;
  readonly currentId: string | null;
  readonly onOpen: (id: string | null) => void;
}

/** The session list (a nav of links, so a middle click opens a session in a new tab). */
export function SessionList({ sessions, currentId, onOpen }: SessionListProps): ReactNode {
  const sorted = sessions === null ? null : [...sessions].sort((a, b) => b.updatedAtMs - a.updatedAtMs);
  return (
    <nav className="sessions" aria-label="Sessions">
      <div className="sessions-head">
        <h2>Sessions</h2>
        <a
          className="button new-session"
          href="/"
          aria-current={currentId === null ? 'page' : undefined}
          onClick={(event) => {
            event.preventDefault();
            onOpen(null);
          }}
        >
          + New
        </a>
      </div>
      {sorted === null ? <p className="note">Loading…</p> : null}
      {sorted !== null && sorted.length === 0 ? <p className="empty-list">No sessions yet. Type a prompt and press <kbd>Enter</kbd>: a session is created on the workspace shown above the prompt.</p> : null}
      <ul>
        {(sorted ?? []).map((session) => (
          <li key={session.id}>
            <a
              href={`/sessions/${encodeURIComponent(session.id)}`}
              className="session"
              data-session-id={session.id}
              aria-current={session.id === currentId ? 'page' : undefined}
              onClick={(event) => {
                if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
                event.preventDefault();
                onOpen(session.id);
              }}
            >
              <span className="session-title">
                {session.running === true ? <span className="running-dot" title="a run is running" aria-label="running" /> : null}
                {session.title ?? 'No prompt yet'}
              </span>
              <span className="session-meta">
                <span title={session.workspace}>{session.workspace === undefined ? '' : basename(session.workspace)}</span>
                <time dateTime={new Date(session.updatedAtMs).toISOString()} title={new Date(session.updatedAtMs).toLocaleString()}>
                  {relativeTime(session.updatedAtMs)}
                </time>
              </span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
