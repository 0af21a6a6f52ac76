import { subscribe, unsubscribe } from 'node:diagnostics_channel';

import type { RequestSentSignal } from '@a3s-lab/code-runtime';

// Published by Node's HTTP client (undici, behind the global `fetch` that both provider SDKs use)
// once a request's body has been written to the socket.
const BODY_SENT = 'undici:request:bodySent';

/**
 * The SDK's {@link RequestSentSignal}: `onSent` runs (on the next turn of the event loop, never
 * inside the HTTP client's own callback) after the process's HTTP client has written the body of
 * a request. Any request counts, which is enough for what it serves: work a session would do at
 * its first tool call is done while its first model request waits for the model instead.
 */
export const requestSentSignal: RequestSentSignal = (onSent) => {
  let armed = true;
  const listener = (): void => {
    cancel();
    setImmediate(onSent);
  };
  const cancel = (): void => {
    if (!armed) return;
    armed = false;
    unsubscribe(BODY_SENT, listener);
  };
  subscribe(BODY_SENT, listener);
  return cancel;
};
