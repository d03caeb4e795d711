import { settingsMessage, type Diagnostic } from '@flowgate/flow-engine';
import { isApiError } from '../../../api/api-error';

const isDiagnostic = (value: unknown): value is Diagnostic =>
  typeof value === 'object' && value !== null && 'severity' in value && 'code' in value && 'message' in value;

/**
 * A refused Save or Deploy as Problems entries: Deploy's `invalid_flow` details are the
 * engine's diagnostics; other validation details (`{path, message}`) concern the settings.
 */
export function problemsFromError(error: unknown): Diagnostic[] {
  if (!isApiError(error)) return [];
  const details = error.details as unknown[];
  if (details.length > 0 && details.every(isDiagnostic)) return details as Diagnostic[];
  const fromDetails = error.details.map((detail) => ({
    severity: 'error' as const,
    code: error.code,
    node_id: null,
    field: detail.path || null,
    message: settingsMessage(detail.path ? detail.path.split('.') : [], detail.message),
  }));
  return fromDetails.length > 0 ? fromDetails : [{ severity: 'error', code: error.code, node_id: null, field: error.code === 'path_taken' ? 'path' : null, message: error.message }];
}
