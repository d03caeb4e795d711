// The few control-plane calls this placeholder needs; the full client comes with the real UI.

export interface User {
  id: string;
  email: string;
}

export interface Session {
  user: User;
  token: string;
}

export type AuthMode = 'login' | 'signup';

/** An error answered by the control plane: `{success:false, code, message}`. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

export async function authenticate(mode: AuthMode, email: string, password: string): Promise<Session> {
  let response: Response;
  try {
    response = await fetch(`/v1/auth/${mode}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      credentials: 'include',
      body: JSON.stringify({ email, password }),
    });
  } catch {
    throw new ApiError('The control plane cannot be reached. Is the stack running (npm start)?', 0);
  }
  const body = (await response.json().catch(() => null)) as (Partial<Session> & { message?: string; code?: string }) | null;
  if (!response.ok || !body?.token || !body.user) {
    throw new ApiError(body?.message ?? `Request failed with status ${response.status}`, response.status, body?.code);
  }
  return { user: body.user, token: body.token };
}
