import type { ErrorDetail } from '@flowgate/contracts';
import { createZodValidationPipe } from 'nestjs-zod';
import { z } from 'zod';
import { AppError } from './app-error';

/**
 * Zod issues as the API's `details`: `[{path: "query_params.0.key", message}]`. A strict schema's
 * unknown fields (`?status[]=500`, `?method[$ne]=x` on the logs) are named one by one.
 */
export function issuesToDetails(error: unknown): ErrorDetail[] {
  if (error instanceof z.ZodError)
    return error.issues.flatMap((issue) => {
      const path = issue.path.map(String);
      if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ path: [...path, key].join('.'), message: 'is not a known parameter' }));
      return [{ path: path.join('.'), message: issue.message }];
    });
  return [{ path: '', message: error instanceof Error ? error.message : 'invalid value' }];
}

/** Global pipe: every `@Body()`/`@Query()` typed with a zod DTO is validated; failures are 400 invalid_request. */
export const ValidationPipe = createZodValidationPipe({
  createValidationException: (error) => new AppError('invalid_request', 'The request is not valid', issuesToDetails(error)),
});
