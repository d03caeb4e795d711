import { type FormEvent, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { errorMessage, isApiError } from '../../api/api-error';
import { useMe, useSignIn } from '../../api/auth';
import { clearSessionEndedNotice, sessionEndedNotice } from '../../api/session-end';
import { Field } from '../../ui/field';
import { Loading } from '../../ui/states';
import { safeNext } from './safe-next';
import { useDocumentTitle } from '../../ui/use-document-title';

const COPY = {
  login: { title: 'Sign in to Flowgate', submit: 'Sign in', other: 'New to Flowgate?', otherLink: 'Create an account', otherPath: '/signup' },
  signup: { title: 'Create your account', submit: 'Create account', other: 'Already have an account?', otherLink: 'Sign in', otherPath: '/login' },
} as const;

/** `/login` and `/signup`: after success, back to the route the visitor asked for (`?next=`). */
export function AuthPage({ mode }: { mode: 'login' | 'signup' }) {
  const me = useMe();
  const [search] = useSearchParams();
  const next = safeNext(search.get('next'));
  const navigate = useNavigate();
  const signIn = useSignIn(mode);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const passwordRef = useRef<HTMLInputElement>(null);
  const [sessionEnded] = useState(sessionEndedNotice);
  const copy = COPY[mode];
  useDocumentTitle(mode === 'login' ? 'Sign in' : 'Create account');

  if (me.isPending) return <Loading label="Checking your session…" />;
  if (me.data && !signIn.isSuccess) return <Navigate to={next} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(
      { email, password },
      {
        onSuccess: () => {
          clearSessionEndedNotice();
          void navigate(next, { replace: true });
        },
        // Wrong credentials: the user retypes the password, so it keeps (gets) focus.
        onError: () => passwordRef.current?.focus(),
      },
    );
  };
  const error = signIn.error;
  const fieldError = (name: string) => (isApiError(error) ? error.fieldMessage(name) : undefined);
  const otherPath = search.get('next') ? `${copy.otherPath}?next=${encodeURIComponent(next)}` : copy.otherPath;

  return (
    <main className="auth" id="main">
      <div className="auth-card">
        <p className="brand auth-brand">
          <span className="brand-mark" aria-hidden="true" />
          Flowgate
        </p>
        <h1>{copy.title}</h1>
        {sessionEnded && mode === 'login' && (
          <p className="auth-notice" role="status">
            Your session ended, so you were signed out. Sign in again to carry on: unsaved Workshop edits were kept in this browser and are offered back.
          </p>
        )}
        <form onSubmit={submit} noValidate>
          <Field label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={fieldError('email')} />
          <Field
            ref={passwordRef}
            label="Password"
            type="password"
            autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={fieldError('password')}
            hint={mode === 'signup' ? 'At least 8 characters and hard to guess: three or four unrelated words work well.' : undefined}
          />
          {error && !fieldError('email') && !fieldError('password') && (
            <p className="form-error" role="alert">
              {isApiError(error) && error.status === 401 ? 'Wrong email or password.' : errorMessage(error)}
            </p>
          )}
          <button type="submit" className="button" disabled={signIn.isPending}>
            {signIn.isPending ? 'Please wait…' : copy.submit}
          </button>
        </form>
        <p className="auth-switch">
          {copy.other} <Link to={otherPath}>{copy.otherLink}</Link>
        </p>
      </div>
    </main>
  );
}
