import { FILTER_OPERATORS, MAX_FILTER_CONDITIONS, MAX_ROWS_PER_QUERY } from '@flowgate/contracts';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

/** One condition of `filter` (JSON in the query string), as in the blocks. */
export const filterConditionSchema = z.object({
  column: z.string().min(1),
  operator: z.enum(FILTER_OPERATORS, { error: `must be one of ${FILTER_OPERATORS.join(', ')}` }),
  value: z.unknown().optional(),
});

const jsonFilter = z
  .string()
  .optional()
  .transform((text, ctx) => {
    if (text === undefined || text === '') return [];
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON: a list of {column, operator, value}' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(filterConditionSchema, { error: 'must be a list of {column, operator, value}' })
      .max(MAX_FILTER_CONDITIONS, `may have at most ${MAX_FILTER_CONDITIONS} conditions, as in the table blocks`),
  );

export const listRowsQuerySchema = z.object({
  filter: jsonFilter.describe('JSON list of {column, operator, value}; all must hold'),
  sort: z
    .string()
    .regex(/^-?[a-z][a-z0-9_]{0,62}$/, { error: 'must be a column name, with a leading - for descending order' })
    .optional()
    .describe('A column name (ascending) or -name (descending); rows of equal value follow by id'),
  limit: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_ROWS_PER_QUERY, `must be at most ${MAX_ROWS_PER_QUERY}`)
    .default(50),
  cursor: z.string().max(2000).optional().describe('`next_cursor` of the previous page'),
});
export class ListRowsQueryDto extends createZodDto(listRowsQuerySchema) {}
export type ListRowsQuery = z.infer<typeof listRowsQuerySchema>;

/** A row: `id`, `created_at`, `updated_at` and one field per column. */
export const rowSchema = z
  .object({ id: z.string(), created_at: z.string(), updated_at: z.string() })
  .catchall(z.unknown())
  .describe('id, created_at, updated_at and one field per column');
export class RowDto extends createZodDto(rowSchema) {}

export class RowPageDto extends createZodDto(
  z.object({ items: z.array(rowSchema), next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last') }),
) {}

export const rowValuesSchema = z.object({
  values: z.record(z.string(), z.unknown()).describe('Column name → value'),
});
export class RowValuesDto extends createZodDto(rowValuesSchema) {}
export type RowValuesInput = z.infer<typeof rowValuesSchema>;

export class ImportResultDto extends createZodDto(z.object({ inserted: z.number().int() })) {}
