import { configure, render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createQueryClient } from '../api/query-client';
import { setSessionHint } from '../api/session-hint';
import { AnnouncerProvider } from '../ui/announcer';
import { routes } from '../app/router';

// Pages are lazy chunks; their first load in a test file takes longer than the default 1 s.
configure({ asyncUtilTimeout: 5000 });

/** The real routes at `path`, in memory, with a fresh query cache; `signedIn` sets the session hint. */
export function renderRoute(path: string, { signedIn = true } = {}) {
  setSessionHint(signedIn);
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false, staleTime: Infinity } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <QueryClientProvider client={client}>
      <AnnouncerProvider>
        <RouterProvider router={router} />
      </AnnouncerProvider>
    </QueryClientProvider>,
  );
  return { ...view, router };
}
