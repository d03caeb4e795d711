/** One field's problem, as the control plane reports validation failures (`details`). */
export interface FieldProblem {
  path: string;
  message: string;
}

/** An error answered by the control plane (`{success:false, code, message, details?}`), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The message for one field (`subdomain`, `name`, …), if the server named it. */
  fieldMessage(field: string): string | undefined {
    return this.details.find((detail) => detail.path === field || detail.path.startsWith(`${field}.`))?.message;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** What to show for any thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
