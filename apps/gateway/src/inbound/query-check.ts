import type { ErrorDetail, PublishedQueryParam } from '@flowgate/contracts';
import { queryValueProblem } from '@flowgate/flow-engine';

/** The parameters that need a check: typed or required ones (plain optional text needs none). */
export function checkedParams(params: readonly PublishedQueryParam[]): PublishedQueryParam[] | null {
  const checked = params.filter((param) => param.required === true || (param.type !== undefined && param.type !== 'string'));
  return checked.length === 0 ? null : checked;
}

/** What is wrong with the request's query, as `query.KEY` details; null when nothing is. */
export function queryProblems(params: readonly PublishedQueryParam[], query: URLSearchParams): ErrorDetail[] | null {
  let problems: ErrorDetail[] | null = null;
  for (const param of params) {
    const raw = query.get(param.key);
    let message: string | null = null;
    if (raw === null) message = param.required === true && param.default === null ? 'is required' : null;
    else message = queryValueProblem({ type: param.type, values: param.values }, raw);
    if (message !== null) (problems ??= []).push({ path: `query.${param.key}`, message });
  }
  return problems;
}
