import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error';

/** Retries only what may pass on a second try (network, 5xx); a 4xx answer will not change. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        retry: (failures, error) => failures < 2 && (!isApiError(error) || error.status === 0 || error.status >= 500),
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
