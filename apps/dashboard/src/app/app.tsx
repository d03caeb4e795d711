import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { setUnauthorizedHandler } from '../api/client';
import { sessionEnded } from '../api/session-end';
import { createQueryClient } from '../api/query-client';
import { queryKeys } from '../api/query-keys';
import { setSessionHint } from '../api/session-hint';
import { AnnouncerProvider } from '../ui/announcer';
import { createRouter } from './router';

/**
 * A 401 on any call means the session ended: unsaved work is kept first, then forgetting the user
 * makes RequireSession send them to /login?next=…, which says why.
 */
function useSessionExpiry(client: QueryClient) {
  useEffect(() => {
    setUnauthorizedHandler(() => {
      sessionEnded();
      setSessionHint(false);
      client.setQueryData(queryKeys.me, null);
    });
    return () => setUnauthorizedHandler(null);
  }, [client]);
}

export function App({ queryClient }: { queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const [router] = useState(createRouter);
  useSessionExpiry(client);
  return (
    <QueryClientProvider client={client}>
      <AnnouncerProvider>
        <RouterProvider router={router} />
      </AnnouncerProvider>
    </QueryClientProvider>
  );
}
