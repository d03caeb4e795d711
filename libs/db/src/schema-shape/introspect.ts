import type { Client, PoolClient } from 'pg';
import type { ColumnShape, ForeignKeyShape, IndexShape, ReferentialAction, SchemaShape, TableShape } from './shape';

type Queryable = Pick<Client | PoolClient, 'query'>;

// Tables of the current schema as Prisma sees them: partitions belong to their parent and
// Prisma's own bookkeeping table is not part of the model.
const TABLE_FILTER = `
  n.nspname = current_schema() AND t.relkind IN ('r', 'p') AND NOT t.relispartition
  AND t.relname <> '_prisma_migrations'`;

const ACTIONS: Record<string, ReferentialAction> = { a: 'NoAction', r: 'Restrict', c: 'Cascade', n: 'SetNull', d: 'SetDefault' };

/** Reads the shape of the database `db` is connected to (its current schema). */
export async function introspectShape(db: Queryable): Promise<SchemaShape> {
  const shape: SchemaShape = { enums: {}, tables: {} };

  const enums = await db.query<{ name: string; labels: string[] }>(`
    SELECT t.typname AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
      FROM pg_type t
      JOIN pg_enum e ON e.enumtypid = t.oid
      JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE n.nspname = current_schema()
     GROUP BY t.typname`);
  for (const row of enums.rows) shape.enums[row.name] = row.labels;

  const table = (name: string): TableShape => (shape.tables[name] ??= { columns: {}, indexes: {}, foreignKeys: {} });

  const columns = await db.query<{ table: string; column: string; type: string; nullable: boolean; default: string | null }>(`
    SELECT t.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
           NOT a.attnotnull AS nullable, pg_get_expr(d.adbin, d.adrelid) AS default
      FROM pg_class t
      JOIN pg_namespace n ON n.oid = t.relnamespace
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
      LEFT JOIN pg_attrdef d ON d.adrelid = t.oid AND d.adnum = a.attnum
     WHERE ${TABLE_FILTER}
     ORDER BY t.relname, a.attnum`);
  for (const row of columns.rows) {
    const column: ColumnShape = { type: row.type, nullable: row.nullable, default: row.default };
    table(row.table).columns[row.column] = column;
  }

  const indexes = await db.query<{ table: string; name: string; primary: boolean; unique: boolean; method: string; columns: string[]; predicate: string | null }>(`
    SELECT t.relname AS table, i.relname AS name, x.indisprimary AS primary, x.indisunique AS unique, am.amname AS method,
           array(SELECT coalesce(a.attname::text, '(expression)') || CASE WHEN x.indoption[k.ord - 1] & 1 = 1 THEN ' DESC' ELSE '' END
                   FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord)
                   LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                  ORDER BY k.ord) AS columns,
           pg_get_expr(x.indpred, x.indrelid) AS predicate
      FROM pg_index x
      JOIN pg_class i ON i.oid = x.indexrelid
      JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      JOIN pg_am am ON am.oid = i.relam
     WHERE ${TABLE_FILTER}`);
  for (const row of indexes.rows) {
    const index: IndexShape = { kind: row.primary ? 'primary' : row.unique ? 'unique' : 'index', method: row.method, columns: row.columns };
    if (row.predicate !== null) index.where = row.predicate;
    table(row.table).indexes[row.name] = index;
  }

  const foreignKeys = await db.query<{ table: string; name: string; columns: string[]; referenced_table: string; referenced_columns: string[]; on_delete: string; on_update: string }>(`
    SELECT t.relname AS table, c.conname AS name, r.relname AS referenced_table,
           array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.ord) AS columns,
           array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.ord) AS referenced_columns,
           c.confdeltype AS on_delete, c.confupdtype AS on_update
      FROM pg_constraint c
      JOIN pg_class t ON t.oid = c.conrelid
      JOIN pg_class r ON r.oid = c.confrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE c.contype = 'f' AND c.conparentid = 0 AND ${TABLE_FILTER}`);
  for (const row of foreignKeys.rows) {
    const foreignKey: ForeignKeyShape = {
      columns: row.columns,
      referencedTable: row.referenced_table,
      referencedColumns: row.referenced_columns,
      onDelete: ACTIONS[row.on_delete] ?? 'NoAction',
      onUpdate: ACTIONS[row.on_update] ?? 'NoAction',
    };
    table(row.table).foreignKeys[row.name] = foreignKey;
  }

  return shape;
}
