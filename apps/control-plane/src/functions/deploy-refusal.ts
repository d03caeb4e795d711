import type { Diagnostic } from '@flowgate/flow-engine';
import { AppError } from '../common/app-error';

/** Diagnostic codes of Call Function that are their own Deploy refusals (the body's `code`). */
const CALL_REFUSALS = ['function_not_live', 'invalid_argument'] as const;

/**
 * Deploy's refusal of a flow with errors: 400 `invalid_flow`, or, when a call is what is wrong,
 * its own code (`function_not_live`, `invalid_argument`), so a caller can tell why without
 * reading the list; `details` lists every diagnostic either way.
 */
export function deployRefusal(diagnostics: Diagnostic[]): AppError {
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  const call = CALL_REFUSALS.find((code) => errors.some((diagnostic) => diagnostic.code === code));
  if (call !== undefined && errors.every((diagnostic) => (CALL_REFUSALS as readonly string[]).includes(diagnostic.code))) {
    const first = errors.find((diagnostic) => diagnostic.code === call) as Diagnostic;
    return new AppError(call, `${first.message} The flow cannot be deployed; details lists every problem`, diagnostics);
  }
  return new AppError('invalid_flow', 'The flow cannot be deployed; fix the errors listed in details', diagnostics);
}
