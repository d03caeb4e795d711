/**
 * A database schema reduced to what `schema.prisma` determines, in PostgreSQL's own spelling
 * (`format_type`, `pg_get_expr`), so the shape expected from the Prisma schema and the shape
 * read from a migrated database compare with a plain deep equality.
 */
export interface SchemaShape {
  /** Enum type name → labels in order. */
  enums: Record<string, string[]>;
  tables: Record<string, TableShape>;
}

export interface TableShape {
  columns: Record<string, ColumnShape>;
  /** Index name → definition; primary keys and unique constraints are indexes too. */
  indexes: Record<string, IndexShape>;
  foreignKeys: Record<string, ForeignKeyShape>;
}

export interface ColumnShape {
  /** As `format_type` prints it: `character varying(254)`, `timestamp(3) with time zone`, an enum's name. */
  type: string;
  nullable: boolean;
  /** As `pg_get_expr` prints it (`CURRENT_TIMESTAMP`, `'{}'::jsonb`, `false`), null when none. */
  default: string | null;
}

export interface IndexShape {
  kind: 'primary' | 'unique' | 'index';
  method: string;
  /** Column names in key order, ` DESC` appended for descending ones. */
  columns: string[];
  /** A partial index's predicate as `pg_get_expr` prints it (`(status <> 200)`); absent for a whole-table index. */
  where?: string;
}

export type ReferentialAction = 'Cascade' | 'Restrict' | 'NoAction' | 'SetNull' | 'SetDefault';

export interface ForeignKeyShape {
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: ReferentialAction;
  onUpdate: ReferentialAction;
}

/** PostgreSQL's identifier limit; Prisma shortens generated constraint names to fit it. */
export const MAX_IDENTIFIER_LENGTH = 63;
