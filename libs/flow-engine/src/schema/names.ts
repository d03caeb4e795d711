import { z } from 'zod';
import { FORBIDDEN_SEGMENTS } from '../template/path-lookup';

/**
 * Names of variables, block results and external-request blocks: what follows `local.`,
 * `result.` or stands first in `{NAME.status}`.
 */
export const REFERENCE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Roots a reference can start with; an external-request block may not take one as its name. */
export const RESERVED_ROOTS: ReadonlySet<string> = new Set([
  'params',
  'local',
  'result',
  'body',
  'request',
  'secrets',
  'input',
  'schedule',
  'current_time',
  'current_date',
  'uuid',
]);

export const referenceNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(REFERENCE_NAME_PATTERN, {
    error: 'must start with a letter or _ and contain only letters, digits and _',
  })
  .refine((name) => !FORBIDDEN_SEGMENTS.has(name), { error: 'may not be __proto__, constructor or prototype' })
  // Tagged so the Workshop names blocks by it and keeps pasted copies from colliding.
  .meta({ referenceName: true });

/** Query parameter names, as they appear in `{params.KEY}`. */
export const PARAM_KEY_PATTERN = /^[A-Za-z0-9_-]+$/;
