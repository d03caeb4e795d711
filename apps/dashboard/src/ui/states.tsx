import type { ReactNode } from 'react';
import { errorMessage, isApiError } from '../api/api-error';
import { NotFoundPage } from './not-found-page';

/** While data loads: a spinner with words for screen readers. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state" aria-busy="true">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** A failed load: what went wrong and a way to try again (never an empty page). */
export function ErrorState({ error, onRetry, title = 'Something went wrong' }: { error: unknown; onRetry?: () => void; title?: string }) {
  return (
    <div className="state state-error" role="alert">
      <strong>{title}</strong>
      <span>{errorMessage(error)}</span>
      {onRetry && (
        <button type="button" className="button secondary" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/** Nothing here yet: say so and offer the first step. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <strong>{title}</strong>
      {children}
    </div>
  );
}

/** Loading, error or the content of one query, in the same shape on every page. */
export function QueryState<T>({
  query,
  children,
  label,
}: {
  query: { data: T | undefined; error: unknown; isPending: boolean; refetch: () => unknown };
  children: (data: T) => ReactNode;
  label?: string;
}) {
  if (query.isPending) return <Loading label={label} />;
  // A thing that does not exist (an old link, a deleted endpoint) is not an error to retry.
  if (isApiError(query.error) && query.error.status === 404) return <NotFoundPage />;
  if (query.error || query.data === undefined) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}

/** One query of a list, in the same shape on every page: loading, error, `emptyTitle` with its hint when it has no item, else `children(items)`. */
export function ListState<T>({
  query,
  label,
  emptyTitle,
  emptyHint,
  children,
}: {
  query: { data: T[] | undefined; error: unknown; isPending: boolean; refetch: () => unknown };
  label: string;
  emptyTitle: string;
  emptyHint: string;
  children: (items: T[]) => ReactNode;
}) {
  return (
    <QueryState query={query} label={label}>
      {(items) =>
        items.length === 0 ? (
          <EmptyState title={emptyTitle}>
            <span>{emptyHint}</span>
          </EmptyState>
        ) : (
          children(items)
        )
      }
    </QueryState>
  );
}
