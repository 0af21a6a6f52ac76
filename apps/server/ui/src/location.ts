// Where the UI keeps what must survive a reload and be shared by tabs: the session id lives in
// the URL path (`/sessions/<id>`, so a link opens the same session in another tab or browser),
// the token in localStorage (one per origin: every tab of this host uses it). The token arrives
// once in the fragment (`/#token=...`, never sent to the server) and is taken out of the address bar.

const TOKEN_KEY = 'a3s.token';
const SESSION_PATH = /^\/sessions\/([A-Za-z0-9._:@-]{1,128})\/?$/;

/** The token: from the fragment (then stored and removed from the URL), else the stored one. */
export function takeToken(): string {
  const match = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
  if (match?.[1] !== undefined) {
    const token = decodeURIComponent(match[1]);
    window.localStorage.setItem(TOKEN_KEY, token);
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    return token;
  }
  return window.localStorage.getItem(TOKEN_KEY) ?? '';
}

/** Keeps `token` for this origin's tabs. */
export function storeToken(token: string): void {
  window.localStorage.setItem(TOKEN_KEY, token);
}

/** Forgets the stored token (it was refused). */
export function forgetToken(): void {
  window.localStorage.removeItem(TOKEN_KEY);
}

/** The session id in the current URL, or null on `/`. */
export function sessionIdFromUrl(): string | null {
  return SESSION_PATH.exec(window.location.pathname)?.[1] ?? null;
}

/** Puts session `id` (or none) in the URL as a new history entry. */
export function navigateToSession(id: string | null): void {
  const path = id === null ? '/' : `/sessions/${encodeURIComponent(id)}`;
  if (window.location.pathname !== path) window.history.pushState(null, '', path);
}
