import { useEffect } from 'react';

/** "Authentication · Shop · Flowgate": the tab says where the user is, and screen readers announce it. */
export function useDocumentTitle(...parts: Array<string | undefined>) {
  const title = [...parts.filter(Boolean), 'Flowgate'].join(' · ');
  useEffect(() => {
    document.title = title;
  }, [title]);
}
