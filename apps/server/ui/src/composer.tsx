// The prompt box: Enter sends (Shift+Enter is a new line), Esc stops the running run (a
// server-side cancel, also bound on the whole page), Send and Stop buttons for the mouse.
import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';

/** Props of {@link Composer}; `onSend` returns why it did not send, or null. */
export interface ComposerProps {
  readonly busy: boolean;
  readonly onSend: (text: string) => string | null;
  readonly onStop?: () => void;
  readonly placeholder?: string;
  /** Text shown under the box (e.g. where a new session will be created). */
  readonly hint?: ReactNode;
}

/** The prompt form. */
export function Composer({ busy, onSend, onStop, placeholder, hint }: ComposerProps): ReactNode {
  const [text, setText] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (onStop === undefined || !busy) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        onStop();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy, onStop]);
  const submit = () => {
    const prompt = text.trim();
    if (prompt === '') {
      setRefusal('Type a prompt first.');
      input.current?.focus();
      return;
    }
    const why = onSend(prompt);
    setRefusal(why);
    if (why === null) setText('');
  };
  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor="prompt-input" className="visually-hidden">Prompt</label>
      <textarea
        id="prompt-input"
        ref={input}
        rows={2}
        value={text}
        placeholder={placeholder ?? 'Ask for a change, a fix, an explanation…'}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <div className="composer-row">
        <span className="hint">
          {refusal === null ? hint ?? <><kbd>Enter</kbd> send · <kbd>Shift</kbd>+<kbd>Enter</kbd> new line{onStop === undefined ? null : <> · <kbd>Esc</kbd> stop</>}</> : <span className="error-inline" role="alert">{refusal}</span>}
        </span>
        {onStop !== undefined && busy ? (
          <button type="button" id="stop-button" className="stop" onClick={onStop}>
            Stop
          </button>
        ) : null}
        <button type="submit" id="send-button" disabled={busy}>
          Send
        </button>
      </div>
    </form>
  );
}
