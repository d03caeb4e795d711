// What happens when a signed-in call answers 401 (the session ended, e.g. it expired): parts of the
// page that hold unsaved work keep it first (the Workshop keeps its draft), and the sign-in page
// is told why the user is there.
const NOTICE_KEY = 'flowgate.session-ended';
const listeners = new Set<() => void>();

/** Runs `listener` when the session ends, before the app sends the user to /login; returns the unsubscribe. */
export function onSessionEnd(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function sessionEnded(): void {
  for (const listener of listeners) listener();
  try {
    sessionStorage.setItem(NOTICE_KEY, '1');
  } catch {
    // storage blocked: the sign-in page then cannot say why
  }
}

/** Whether this tab was signed out because its session ended (shown on the sign-in page until a sign-in). */
export function sessionEndedNotice(): boolean {
  try {
    return sessionStorage.getItem(NOTICE_KEY) === '1';
  } catch {
    return false;
  }
}

export function clearSessionEndedNotice(): void {
  try {
    sessionStorage.removeItem(NOTICE_KEY);
  } catch {
    // nothing to clear
  }
}
