import type { DataTableShape } from '@flowgate/contracts';
import { blockRegistry } from '../blocks/registry';
import type { CompiledFlow } from '../compile/compiled-flow';
import type { EndpointSettings } from '../schema/endpoint-settings.schema';
import { bodySchemaOf, formSchemaOf } from './body-fields';
import { FlowTypes } from './flow-types';
import type { JsonSchema } from './json-schema';
import { addOutcome, flowOutcomes, outcomeSchema, type Outcomes } from './responses';

export const SECURITY_SCHEME = 'apiKey';
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

export interface DescribedEndpoint {
  settings: Pick<EndpointSettings, 'name' | 'method' | 'path' | 'auth' | 'query_params'>;
  /** The live version's compiled flow (what the gateways run). */
  compiled: CompiledFlow;
}

/** One OpenAPI operation object (plain JSON). */
export type OperationObject = Record<string, unknown>;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** The key an endpoint needs, in words (operation descriptions and the API docs page). */
export function keyNeeded(auth: EndpointSettings['auth'], requireAuth: boolean): 'none' | 'any' | 'admin' {
  if (auth === 'admin') return 'admin';
  return auth === 'user' || requireAuth ? 'any' : 'none';
}

/**
 * The OpenAPI operation of one live endpoint, inferred from its settings and compiled flow.
 * Pure: the control plane builds it at publication and the tests check it against the gateway.
 */
export function describeEndpoint(
  endpoint: DescribedEndpoint,
  options: { requireAuth: boolean; operationId: string; tables?: readonly DataTableShape[] },
): OperationObject {
  const { settings, compiled } = endpoint;
  const key = keyNeeded(settings.auth, options.requireAuth);
  const defaults = new Map(settings.query_params.map((param) => [param.key, param.default ?? null]));
  const outcomes: Outcomes = new Map();
  flowOutcomes(compiled, new FlowTypes(compiled, defaults, options.tables ?? []), outcomes);

  const operation: OperationObject = {
    operationId: options.operationId,
    summary: settings.name,
    description: keyDescription(key),
  };
  if (settings.query_params.length > 0) {
    operation.parameters = settings.query_params.map((param) => ({
      name: param.key,
      in: 'query',
      required: false,
      schema: param.default === null || param.default === undefined ? { type: 'string' } : { type: 'string', default: param.default },
    }));
  }
  if (BODY_METHODS.has(settings.method)) {
    const body = bodySchemaOf(compiled) ?? { type: 'object' };
    operation.requestBody = {
      required: false,
      content: { 'application/json': { schema: body }, 'application/x-www-form-urlencoded': { schema: formSchemaOf(body) } },
    };
    addOutcome(outcomes, 400, { errorCodes: ['invalid_json', 'invalid_request'], reasons: ['The body is not valid JSON or form data'] });
    addOutcome(outcomes, 413, { errorCodes: ['payload_too_large'], reasons: ['The body is over the size limit'] });
    addOutcome(outcomes, 415, { errorCodes: ['unsupported_media_type'], reasons: ['The body is neither JSON nor form data'] });
  }
  if (key !== 'none') {
    operation.security = [{ [SECURITY_SCHEME]: [] }];
    addOutcome(outcomes, 401, { errorCodes: ['missing_api_key', 'invalid_api_key'], reasons: ['The API key is missing or not valid'], headers: ['WWW-Authenticate'] });
    if (key === 'admin') addOutcome(outcomes, 403, { errorCodes: ['insufficient_permission'], reasons: ['This endpoint needs an admin key'] });
    addOutcome(outcomes, 429, { errorCodes: ['rate_limited'], reasons: ["The key's requests per minute are used up"], headers: ['Retry-After'] });
    addOutcome(outcomes, 503, { errorCodes: ['unavailable'], reasons: ['API keys cannot be verified right now; retry'], headers: ['Retry-After'] });
  }
  // Any block may fail on its input (text that does not decode, an image that is not one, …).
  addOutcome(outcomes, 500, { errorCodes: ['flow_error'], reasons: ['A block of the flow failed'] });
  if (compiled.blocks.some((block) => blockRegistry.get(block.type)?.definition.async)) {
    addOutcome(outcomes, 504, { errorCodes: ['flow_timeout'], reasons: ['The flow did not finish in time'] });
  }
  operation.responses = responsesObject(outcomes, key !== 'none');
  return operation;
}

function keyDescription(key: 'none' | 'any' | 'admin'): string {
  switch (key) {
    case 'none':
      return 'Public: no API key needed.';
    case 'any':
      return 'Needs an API key of the project (user or admin): `Authorization: Bearer <key>`.';
    case 'admin':
      return 'Needs an admin API key of the project: `Authorization: Bearer <key>`.';
  }
}

function responsesObject(outcomes: Outcomes, keyed: boolean): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const status of [...outcomes.keys()].sort((a, b) => a - b)) {
    const outcome = outcomes.get(status)!;
    const headerNames = [...(keyed ? RATE_LIMIT_HEADERS : []), ...outcome.headers];
    const schema: JsonSchema = outcomeSchema(outcome);
    responses[String(status)] = {
      description: outcome.reasons.join('; '),
      ...(headerNames.length > 0 ? { headers: Object.fromEntries(headerNames.map((name) => [name, { $ref: `#/components/headers/${name}` }])) } : {}),
      content: { 'application/json': { schema } },
    };
  }
  return responses;
}
