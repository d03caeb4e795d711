import type { ErrorDetail } from '@flowgate/contracts';
import type { default as AjvClass, ErrorObject } from 'ajv';
import { RE2JS } from 're2js';

/** At most this many problems are listed: a 10 000-item list with one wrong field each says enough in 20. */
const MAX_DETAILS = 20;

/**
 * `pattern` runs on RE2 (linear time), as Match Regex does: a body cannot make a pattern
 * backtrack for seconds. Patterns were checked for cost when the endpoint was saved.
 */
const linearRegExp = Object.assign((pattern: string) => {
  const regex = RE2JS.compile(pattern);
  return { test: (text: string) => regex.test(text) };
}, { code: 'RE2JS' });

let ajv: AjvClass | null = null;

/**
 * One Ajv for the gateway: schemas are compiled once per deployed version (route-inbound.ts),
 * never per request. Loaded with the first body schema, so a gateway whose endpoints check none
 * does not hold it (~10 MB).
 */
function validatorCompiler(): AjvClass {
  if (ajv === null) {
    const Ajv = (require('ajv') as { default: typeof AjvClass }).default;
    ajv = new Ajv({ allErrors: true, strict: true, code: { regExp: linearRegExp } });
  }
  return ajv;
}

export type BodyValidator = (body: unknown) => ErrorDetail[] | null;

export function compileBodyValidator(schema: object): BodyValidator {
  const validate = validatorCompiler().compile(schema);
  return (body) => (validate(body) ? null : detailsOf(validate.errors ?? []));
}

/** Ajv's `/items/0/qty` → `body.items.0.qty`; a missing property is named in its path. */
function detailsOf(errors: readonly ErrorObject[]): ErrorDetail[] {
  return errors.slice(0, MAX_DETAILS).map((error) => {
    const segments = error.instancePath.split('/').slice(1).map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (error.keyword === 'required') segments.push(String((error.params as { missingProperty: string }).missingProperty));
    if (error.keyword === 'additionalProperties') segments.push(String((error.params as { additionalProperty: string }).additionalProperty));
    const message = error.keyword === 'required' ? 'is required' : error.keyword === 'additionalProperties' ? 'is not an accepted field' : (error.message ?? 'is invalid');
    return { path: ['body', ...segments].join('.'), message };
  });
}
