import type { MouseEvent } from 'react';
import { Link, Outlet, useNavigate } from 'react-router';
import { useMe, useSignOut } from '../api/auth';
import { errorMessage } from '../api/api-error';
import { AccountMenu } from '../features/account/account-menu';

/** Focuses the page's own content (`#content`, after a project's menu), else the main area. */
function skipToContent(event: MouseEvent<HTMLAnchorElement>) {
  const target = document.getElementById('content') ?? document.getElementById('main');
  if (!target) return;
  event.preventDefault();
  target.focus();
}

/** Header (brand, who is signed in, the `Account` menu, `Sign out`) above every signed-in page. */
export function AppLayout() {
  const me = useMe();
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <div className="app">
      {/* The first Tab of every page: past the header and the project menu to the page itself. */}
      <a className="skip-link" href="#content" onClick={skipToContent}>
        Skip to content
      </a>
      <header className="app-header">
        <Link to="/projects" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Flowgate
        </Link>
        <div className="header-account">
          {me.data && <span className="muted">{me.data.email}</span>}
          {signOut.error && <span className="field-error">{errorMessage(signOut.error)}</span>}
          <AccountMenu />
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
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
