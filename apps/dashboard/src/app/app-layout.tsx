import { Link, Outlet, useNavigate } from 'react-router';
import { useMe, useSignOut } from '../api/auth';
import { errorMessage } from '../api/api-error';

/** Header (brand, who is signed in, `Sign out`) above every signed-in page. */
export function AppLayout() {
  const me = useMe();
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <div className="app">
      <header className="app-header">
        <Link to="/projects" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Flowgate
        </Link>
        <div className="header-account">
          {me.data && <span className="muted">{me.data.email}</span>}
          {signOut.error && <span className="field-error">{errorMessage(signOut.error)}</span>}
          <button
            type="button"
            className="button secondary"
            disabled={signOut.isPending}
            onClick={() => signOut.mutate(undefined, { onSuccess: () => void navigate('/login', { replace: true }) })}
          >
            Sign out
          </button>
        </div>
      </header>
      <main id="main" className="app-main">
        <Outlet />
      </main>
    </div>
  );
}
