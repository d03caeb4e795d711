/** The blocks that read or write a data table. */
export const TABLE_BLOCK_TYPES: ReadonlySet<string> = new Set(['query_rows', 'get_row', 'insert_row', 'update_rows', 'delete_rows']);

/** A table block of a compiled flow: the table it names and the columns its config names. */
export interface TableUse {
  node_id: string;
  table: string;
  columns: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The tables and columns a compiled flow's table blocks name (filter, sort and values): what a
 * rename or a delete of the table would break. Columns only read out of a result
 * (`{result.ref.rows.0.price}`) are not counted.
 */
export function tableUsesOf(compiled: unknown): TableUse[] {
  if (!isObject(compiled) || !Array.isArray(compiled.blocks)) return [];
  const uses: TableUse[] = [];
  for (const block of compiled.blocks as unknown[]) {
    if (!isObject(block) || typeof block.type !== 'string' || !TABLE_BLOCK_TYPES.has(block.type) || !isObject(block.config)) continue;
    const { table, filter, sort, values } = block.config;
    if (typeof table !== 'string') continue;
    const columns = new Set<string>();
    if (Array.isArray(filter)) for (const condition of filter) if (isObject(condition) && typeof condition.column === 'string') columns.add(condition.column);
    if (isObject(sort) && typeof sort.column === 'string') columns.add(sort.column);
    if (isObject(values)) for (const name of Object.keys(values)) columns.add(name);
    uses.push({ node_id: String(block.id), table, columns: [...columns] });
  }
  return uses;
}
