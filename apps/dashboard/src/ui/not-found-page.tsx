import { Link } from 'react-router';
import { useDocumentTitle } from './use-document-title';

/** Unknown routes and projects of other accounts: a page that says so, with a way home. */
export function NotFoundPage({ what = 'page' }: { what?: string }) {
  useDocumentTitle('Not found');
  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <p className="not-found-code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title">Not found</h1>
      <p>This {what} does not exist, or it belongs to another account.</p>
      <Link className="button" to="/projects">
        Go to your projects
      </Link>
    </section>
  );
}
