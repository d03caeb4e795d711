import { z } from 'zod';
import { env } from './config';

/**
 * Where data tables live (docs/data-tables.md), read by the control plane (REST, test runs)
 * and the gateways (the table blocks). Spread into an app's schema; `dataDatabaseUrlOf` gives
 * the URL with its default.
 */
export const dataConfigShape = {
  /** Default: database `flowgate_data` on the server of DATABASE_URL. */
  DATA_DATABASE_URL: z
    .string()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || /^postgres(?:ql)?:\/\//.test(value), 'must be a postgresql:// URL (e.g. postgresql://postgres@127.0.0.1:5432/flowgate_data)').describe('where data tables\' rows live (created by `npm run db:migrate` and at control-plane start); the gateway reaches only this database').meta({ defaultText: 'database `flowgate_data` on the server of `DATABASE_URL`' }),
  /** Connections one process opens to the data database at most. */
  DATA_POOL_SIZE: env.positiveInt(10).describe('connections one process opens to the data database (a gateway opens its pool when a table block first runs)'),
};

/** DATA_DATABASE_URL, or database `flowgate_data` on the server of DATABASE_URL. */
export function dataDatabaseUrlOf(values: { DATA_DATABASE_URL?: string; DATABASE_URL: string }): string {
  if (values.DATA_DATABASE_URL) return values.DATA_DATABASE_URL;
  const url = new URL(values.DATABASE_URL);
  url.pathname = '/flowgate_data';
  return url.toString();
}
