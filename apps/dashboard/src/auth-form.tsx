import { type FormEvent, useState } from 'react';
import { type AuthMode, type Session, authenticate } from './api';

export function AuthForm({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [mode, setMode] = useState<AuthMode>('login');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await authenticate(mode, email, password));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  const isLogin = mode === 'login';
  return (
    <section className="card">
      <h2>{isLogin ? 'Log in' : 'Create an account'}</h2>
      <form onSubmit={submit}>
        <label>
          Email
          <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Password
          <input
            type="password"
            autoComplete={isLogin ? 'current-password' : 'new-password'}
            required
            minLength={isLogin ? undefined : 8}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Please wait…' : isLogin ? 'Log in' : 'Sign up'}
        </button>
      </form>
      <p className="switch">
        {isLogin ? 'New to Flowgate?' : 'Already have an account?'}{' '}
        <button type="button" className="link" onClick={() => setMode(isLogin ? 'signup' : 'login')}>
          {isLogin ? 'Create an account' : 'Log in'}
        </button>
      </p>
    </section>
  );
}
