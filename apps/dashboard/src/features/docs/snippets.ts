import { sampleBody, type OperationView } from './operations';

const KEY_PLACEHOLDER = '<your key>';

/** The URL with the query parameters that have a default set to it (the others are optional and null when left out). */
export function exampleUrl(op: OperationView): string {
  const query = op.parameters.flatMap((parameter) =>
    parameter.default === null ? [] : [`${encodeURIComponent(parameter.name)}=${encodeURIComponent(parameter.default)}`],
  );
  return query.length === 0 ? op.url : `${op.url}?${query.join('&')}`;
}

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlSnippet(op: OperationView): string {
  const lines = [`curl${op.method === 'GET' ? '' : ` -X ${op.method}`} ${shellQuote(exampleUrl(op))}`];
  if (op.key !== 'none') lines.push(`-H ${shellQuote(`Authorization: Bearer ${KEY_PLACEHOLDER}`)}`);
  const body = sampleBody(op.body);
  if (body !== undefined) lines.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(body))}`);
  return lines.join(' \\\n  ');
}

export function fetchSnippet(op: OperationView): string {
  const headers: string[] = [];
  if (op.key !== 'none') headers.push(`Authorization: 'Bearer ${KEY_PLACEHOLDER}'`);
  const body = sampleBody(op.body);
  if (body !== undefined) headers.push(`'Content-Type': 'application/json'`);
  const options = [`method: '${op.method}'`];
  if (headers.length > 0) options.push(`headers: { ${headers.join(', ')} }`);
  if (body !== undefined) options.push(`body: JSON.stringify(${JSON.stringify(body)})`);
  return [`const response = await fetch(${JSON.stringify(exampleUrl(op))}, {`, ...options.map((option) => `  ${option},`), '});', 'const data = await response.json();'].join('\n');
}
