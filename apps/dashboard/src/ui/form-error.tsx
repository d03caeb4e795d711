import { errorMessage } from '../api/api-error';

/** What went wrong with a form or an action, when it belongs to no one field: an `alert` with the message (nothing without an error). */
export function FormError({ error }: { error: unknown }) {
  return error ? (
    <p className="form-error" role="alert">
      {errorMessage(error)}
    </p>
  ) : null;
}
