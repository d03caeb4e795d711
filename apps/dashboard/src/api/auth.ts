import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error';
import { api } from './client';
import { queryKeys } from './query-keys';
import { hasSessionHint, setSessionHint } from './session-hint';
import type { User } from './types';

export type Credentials = { email: string; password: string };

/** The signed-in user, or null when there is no session (a 401 here is an answer, not an error). */
export function useMe() {
  return useQuery({
    queryKey: queryKeys.me,
    queryFn: async (): Promise<User | null> => {
      if (!hasSessionHint()) return null;
      try {
        return (await api('GET /v1/auth/me')).user;
      } catch (error) {
        if (isApiError(error) && error.status === 401) {
          setSessionHint(false);
          return null;
        }
        throw error;
      }
    },
    staleTime: Infinity,
  });
}

export function useSignIn(mode: 'login' | 'signup') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Credentials) => (mode === 'login' ? api('POST /v1/auth/login', { body }) : api('POST /v1/auth/signup', { body })),
    onSuccess: (session) => {
      setSessionHint(true);
      client.clear();
      client.setQueryData(queryKeys.me, session.user);
    },
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        await api('POST /v1/auth/logout');
      } catch (error) {
        // An already ended session is the outcome the user asked for.
        if (!isApiError(error) || error.status !== 401) throw error;
      }
    },
    onSuccess: () => {
      setSessionHint(false);
      client.clear();
      client.setQueryData(queryKeys.me, null);
    },
  });
}

export type PasswordChange = { current_password: string; new_password: string };

/** Replaces the password; the server ends every other session and keeps this one. */
export function useChangePassword() {
  return useMutation({ mutationFn: (body: PasswordChange) => api('POST /v1/auth/password', { body }) });
}

/** Ends every session of the account, this one included: afterwards the user is signed out here too. */
export function useSignOutEverywhere() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api('POST /v1/auth/logout-all'),
    onSuccess: () => {
      setSessionHint(false);
      client.clear();
      client.setQueryData(queryKeys.me, null);
    },
  });
}
