// Whether this browser was signed in: not a secret (the session is the HttpOnly cookie), only a
// hint that spares a signed-out visitor the `GET /v1/auth/me` that would answer 401 (and log an
// error in the console) on every page load. A stale hint costs one 401, after which it is cleared.
const KEY = 'flowgate.signed-in';

export function hasSessionHint(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return true; // storage blocked: ask the server
  }
}

export function setSessionHint(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(KEY, '1');
    else localStorage.removeItem(KEY);
  } catch {
    // storage blocked: every load asks the server
  }
}
