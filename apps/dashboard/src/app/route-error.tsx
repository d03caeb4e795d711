import { useRouteError } from 'react-router';
import { ErrorState } from '../ui/states';

/** A page that failed to load or render (e.g. its chunk after a deploy): say so, offer a reload — never a blank screen. */
export function RouteError() {
  const error = useRouteError();
  return (
    <main className="app-main">
      <ErrorState title="This page could not be shown" error={error} onRetry={() => window.location.reload()} />
    </main>
  );
}
