// The page: token gate, header (model, scripted-model notice), session list, and the open
// session's conversation or the new-session view (Send there creates a session first).
import { useCallback, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { ApiError, describeError, getJson, postJson } from './api.js';
import type { HostConfig, SessionSummary } from './api.js';
import { ChatView } from './chat-view.js';
import { Composer } from './composer.js';
import { forgetToken, navigateToSession, sessionIdFromUrl, storeToken, takeToken } from './location.js';
import { SessionList } from './session-list.js';

/** How often the session list is re-read while the tab is visible (it is read from the store: no lease). */
const SESSIONS_REFRESH_MS = 3000;

function TokenForm({ refused, onToken }: { readonly refused: boolean; readonly onToken: (token: string) => void }): ReactNode {
  const [value, setValue] = useState('');
  return (
    <main className="gate">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (value.trim() !== '') onToken(value.trim());
        }}
      >
        <h2>Token needed</h2>
        <p>This host needs its token. It was printed when the server first started (the <code>open:</code> URL carries it), or read it from <code>&lt;state-dir&gt;/token</code>.</p>
        {refused ? <p className="error" role="alert">The host refused that token.</p> : null}
        <label htmlFor="token-input">Server token</label>
        <input id="token-input" type="password" autoComplete="off" value={value} onChange={(event) => setValue(event.target.value)} required />
        <button type="submit">Use token</button>
      </form>
    </main>
  );
}

/** The whole UI. */
export function App(): ReactNode {
  const [token, setToken] = useState(() => takeToken());
  const [refused, setRefused] = useState(false);
  const [config, setConfig] = useState<HostConfig | null>(null);
  const [fatal, setFatal] = useState<string | null>(null);
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [sessionId, setSessionId] = useState<string | null>(() => sessionIdFromUrl());
  const [pendingPrompt, setPendingPrompt] = useState<{ sessionId: string; prompt: string } | null>(null);
  const [workspace, setWorkspace] = useState('');
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const [showSessions, setShowSessions] = useState(false);

  const unauthorized = useCallback(() => {
    forgetToken();
    setRefused(true);
    setToken('');
  }, []);

  useEffect(() => {
    const onPop = () => setSessionId(sessionIdFromUrl());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  useEffect(() => {
    if (token === '') return;
    getJson<HostConfig>(token, '/api/config').then(
      (value) => {
        setConfig(value);
        setRefused(false);
        setWorkspace((current) => current || (value.workspaceRoots[0] ?? ''));
      },
      (error: unknown) => (error instanceof ApiError && error.code === 'UNAUTHORIZED' ? unauthorized() : setFatal(describeError(error))),
    );
  }, [token, unauthorized]);

  const refreshSessions = useCallback(() => {
    if (token === '') return;
    getJson<{ sessions: SessionSummary[] }>(token, '/api/sessions').then(
      (body) => setSessions(body.sessions),
      (error: unknown) => (error instanceof ApiError && error.code === 'UNAUTHORIZED' ? unauthorized() : undefined),
    );
  }, [token, unauthorized]);

  useEffect(() => {
    if (config === null) return;
    refreshSessions();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') refreshSessions();
    }, SESSIONS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [config, refreshSessions]);

  const open = useCallback((id: string | null) => {
    navigateToSession(id);
    setSessionId(id);
    setShowSessions(false);
    setCreateError(null);
  }, []);

  // Send with no session: create one on the chosen workspace, open it, send the prompt there.
  const sendNew = useCallback(
    (prompt: string): string | null => {
      if (creating) return 'Creating the session…';
      if (workspace.trim() === '') return 'Choose a workspace first: the folder the agent works in.';
      setCreating(true);
      setCreateError(null);
      postJson<{ id: string }>(token, '/api/sessions', { workspace: workspace.trim() }).then(
        (created) => {
          setCreating(false);
          setPendingPrompt({ sessionId: created.id, prompt });
          open(created.id);
          refreshSessions();
        },
        (error: unknown) => {
          setCreating(false);
          if (error instanceof ApiError && error.code === 'UNAUTHORIZED') unauthorized();
          else setCreateError(`Could not create a session on ${workspace.trim()}: ${describeError(error)}`);
        },
      );
      return null;
    },
    [creating, workspace, token, open, refreshSessions, unauthorized],
  );

  const clearPendingPrompt = useCallback(() => setPendingPrompt(null), []);

  if (token === '')
    return (
      <TokenForm
        refused={refused}
        onToken={(value) => {
          storeToken(value);
          setFatal(null);
          setToken(value);
        }}
      />
    );

  const scripted = config?.model?.startsWith('scripted/') === true;
  const current = sessions?.find((s) => s.id === sessionId);
  return (
    <div className="page">
      <header className="top">
        <h1>A3S Code</h1>
        {config?.model === undefined ? null : <span className="model" title="the agent's default model">{config.model}</span>}
        <button type="button" className="sessions-toggle" aria-expanded={showSessions} onClick={() => setShowSessions((v) => !v)}>
          Sessions{sessions === null ? '' : ` (${sessions.length})`}
        </button>
      </header>
      {scripted ? (
        <p className="demo-notice" role="note">
          Demo: answers come from the bundled <strong>scripted model</strong> (canned, no API key). For a real model run <code>a3s-code serve</code> with your config.
        </p>
      ) : null}
      {fatal === null ? null : <p className="error" role="alert">{fatal}</p>}
      <div className={`layout${showSessions ? ' show-sessions' : ''}`}>
        <SessionList sessions={sessions} currentId={sessionId} onOpen={open} />
        <main className="chat" data-session-id={sessionId ?? ''}>
          {sessionId === null ? (
            <>
              <div className="conversation">
                <div className="empty">
                  <p><strong>Start a session</strong></p>
                  <p>Type what you want done and press <kbd>Enter</kbd>: a new session opens on the workspace below and runs your prompt. Or pick a session from the list.</p>
                  <label htmlFor="workspace-input">Workspace</label>
                  <input id="workspace-input" list="workspace-roots" value={workspace} onChange={(event) => setWorkspace(event.target.value)} />
                  <datalist id="workspace-roots">
                    {(config?.workspaceRoots ?? []).map((root) => (
                      <option key={root} value={root} />
                    ))}
                  </datalist>
                  <p className="hint">Must lie inside {config === null ? 'a workspace root' : config.workspaceRoots.length === 1 ? config.workspaceRoots[0] : `one of: ${config.workspaceRoots.join(', ')}`}.</p>
                </div>
                {creating ? <p className="note" aria-busy="true">Creating the session…</p> : null}
                {createError === null ? null : <p className="error" role="alert">{createError}</p>}
              </div>
              <Composer busy={creating} onSend={sendNew} />
            </>
          ) : (
            <ChatView
              key={sessionId}
              token={token}
              sessionId={sessionId}
              initialPrompt={pendingPrompt?.sessionId === sessionId ? pendingPrompt.prompt : null}
              runningRunId={current?.runningRunId ?? null}
              updatedAtMs={current?.updatedAtMs ?? null}
              onActivity={refreshSessions}
              onInitialPromptSent={clearPendingPrompt}
              onUnauthorized={unauthorized}
            />
          )}
        </main>
      </div>
    </div>
  );
}
