import { COLUMN_TYPES, DATA_NAME_PATTERN, DATA_NAME_RULE, RESERVED_COLUMN_NAMES } from '@flowgate/contracts';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

/** Columns one table may declare. */
export const MAX_COLUMNS = 100;

const dataName = z.string({ error: 'is required' }).regex(DATA_NAME_PATTERN, { error: DATA_NAME_RULE });
const columnName = dataName.refine((name) => !RESERVED_COLUMN_NAMES.has(name), {
  error: 'is kept for every row or by PostgreSQL (id, created_at, updated_at, tableoid, xmin, xmax, cmin, cmax, ctid, oid)',
});

export const columnSchema = z.object({
  name: columnName,
  type: z.enum(COLUMN_TYPES, { error: `must be one of ${COLUMN_TYPES.join(', ')}` }),
  required: z.boolean().default(false),
  unique: z.boolean().default(false),
  indexed: z.boolean().default(false).describe('A lookup index on the column (a unique column has one already)'),
});

const distinctNames = <T extends { name: string }>(columns: T[]) => new Set(columns.map((column) => column.name)).size === columns.length;

export const createTableSchema = z.object({
  name: dataName.describe('Unique in the project; what blocks name in `table`'),
  columns: z
    .array(columnSchema)
    .max(MAX_COLUMNS, `must have at most ${MAX_COLUMNS} columns`)
    .default([])
    .refine(distinctNames, 'must not name a column twice'),
});
export class CreateTableDto extends createZodDto(createTableSchema) {}
export type CreateTableInput = z.infer<typeof createTableSchema>;

export const columnUpdateSchema = columnSchema.extend({
  renamed_from: columnName.optional().describe('The column whose data this one keeps, under a new name'),
});

export const updateTableSchema = z.object({
  name: dataName.optional(),
  columns: z
    .array(columnUpdateSchema)
    .max(MAX_COLUMNS, `must have at most ${MAX_COLUMNS} columns`)
    .refine(distinctNames, 'must not name a column twice')
    .optional()
    .describe('The full new column list: a column keeps its data when its name (or `renamed_from`) names an existing one'),
});
export class UpdateTableDto extends createZodDto(updateTableSchema) {}
export type UpdateTableInput = z.infer<typeof updateTableSchema>;

export const tableSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  columns: z.array(columnSchema.required()),
  row_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TableView = z.infer<typeof tableSchema>;
export class TableDto extends createZodDto(tableSchema) {}
export class TableListDto extends createZodDto(z.object({ items: z.array(tableSchema) })) {}

export const deleteTableQuerySchema = z.object({
  force: z.enum(['true', 'false']).default('false').describe('Delete even when live endpoints use the table'),
});
export class DeleteTableQueryDto extends createZodDto(deleteTableQuerySchema) {}
