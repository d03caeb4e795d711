import { useState } from 'react';
import { AuthForm } from './auth-form';
import type { Session } from './api';

const SESSION_KEY = 'flowgate.session';

function storedSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(SESSION_KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function App() {
  const [session, setSession] = useState<Session | null>(storedSession);

  const signedIn = (next: Session) => {
    sessionStorage.setItem(SESSION_KEY, JSON.stringify(next));
    setSession(next);
  };
  const signOut = () => {
    sessionStorage.removeItem(SESSION_KEY);
    setSession(null);
  };

  return (
    <main className="shell">
      <header>
        <h1>Flowgate</h1>
        <p className="tagline">Build HTTP endpoints from visual flows and serve them as JSON APIs.</p>
      </header>
      {session ? (
        <section className="card" aria-live="polite">
          <h2>Signed in</h2>
          <p>
            You are signed in as <strong>{session.user.email}</strong>. Projects and the Workshop editor arrive with
            the next release of the dashboard.
          </p>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </section>
      ) : (
        <AuthForm onSignedIn={signedIn} />
      )}
    </main>
  );
}
