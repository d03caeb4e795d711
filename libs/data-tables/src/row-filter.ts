import { columnTypeOf, operatorProblem, VALUELESS_OPERATORS, type ColumnType, type DataColumn, type FilterCondition } from '@flowgate/contracts';
import { toStoredValue } from './column-values';
import { DataError } from './data-error';
import { unstorableJson } from './storable-text';
import { quoteIdent } from './storage-names';
import { isUuid } from '@flowgate/platform';

/** Collects bound values; `add` returns the placeholder. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const SQL_OPERATORS = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const CAST: Record<ColumnType, string> = { text: 'text', number: 'double precision', boolean: 'boolean', datetime: 'timestamptz', json: 'jsonb' };

const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** A filter value converted for its column; `id` must look like a row id. */
function operand(column: string, type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) throw new DataError('invalid_value', `the condition on ${column} needs a value`, column);
  if (column === 'id') {
    if (typeof value !== 'string' || !isUuid(value)) throw new DataError('invalid_value', `id expects a row id, got ${JSON.stringify(value)}`, column);
    return value;
  }
  return toStoredValue(column, type, value);
}

/**
 * `WHERE` text for a list of conditions (all must hold), with every value bound. Column names
 * are checked against the table's columns and quoted; an unknown one is a DataError.
 */
export function whereClause(columns: readonly DataColumn[], conditions: readonly FilterCondition[], params: Params): string {
  if (conditions.length === 0) return '';
  const parts = conditions.map((condition) => {
    const type = columnTypeOf(columns, condition.column);
    if (type === null) throw new DataError('unknown_column', `the table has no column ${condition.column}`, condition.column);
    const problem = operatorProblem(condition.operator, type);
    if (problem !== null) throw new DataError('invalid_value', `${condition.column}: ${problem}`, condition.column);
    const name = quoteIdent(condition.column);
    const cast = condition.column === 'id' ? 'uuid' : CAST[type];
    switch (condition.operator) {
      case 'is_null':
        return `${name} IS NULL`;
      case 'is_not_null':
        return `${name} IS NOT NULL`;
      case 'contains': {
        const problem = unstorableJson(condition.value);
        if (problem !== null) throw new DataError('invalid_value', `the condition on ${condition.column} ${problem}`, condition.column);
        if (type === 'json') return `${name} @> ${params.add(JSON.stringify(condition.value ?? null))}::jsonb`;
        if (typeof condition.value !== 'string' && typeof condition.value !== 'number')
          throw new DataError('invalid_value', `contains on ${condition.column} needs a text value`, condition.column);
        return `${name} ILIKE ${params.add(likePattern(String(condition.value)))}`;
      }
      case 'in': {
        if (!Array.isArray(condition.value)) throw new DataError('invalid_value', `in on ${condition.column} needs a list of values`, condition.column);
        const list = condition.value.map((item) => operand(condition.column, type, item));
        return `${name} = ANY(${params.add(list)}::${cast}[])`;
      }
      default:
        return `${name} ${SQL_OPERATORS[condition.operator]} ${params.add(operand(condition.column, type, condition.value))}::${cast}`;
    }
  });
  return ` WHERE ${parts.join(' AND ')}`;
}

export const needsValue = (condition: FilterCondition): boolean => !VALUELESS_OPERATORS.has(condition.operator);
