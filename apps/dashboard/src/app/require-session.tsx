import { Navigate, Outlet, useLocation } from 'react-router';
import { useMe } from '../api/auth';
import { ErrorState, Loading } from '../ui/states';

/** The signed-in part of the app: a visitor without a session goes to /login and comes back here after. */
export function RequireSession() {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Loading label="Checking your session…" />;
  if (me.error) return <ErrorState error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return <Outlet />;
}
