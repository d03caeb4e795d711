import type { DataTableShape } from '@flowgate/contracts';
import { blockRegistry } from '../blocks/registry';
import type { CompiledFlow } from '../compile/compiled-flow';
import { queryValueProblem, typedQueryValue, type EndpointSettings, type QueryParam } from '../schema/endpoint-settings.schema';
import { bodySchemaOf, formSchemaOf } from './body-fields';
import { FlowTypes } from './flow-types';
import type { JsonSchema } from './json-schema';
import { addOutcome, flowOutcomes, outcomeSchema, type Outcomes } from './responses';

export const SECURITY_SCHEME = 'apiKey';
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

export interface DescribedEndpoint {
  settings: Pick<EndpointSettings, 'name' | 'method' | 'path' | 'auth' | 'query_params' | 'body_schema' | 'signature' | 'mcp'>;
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
  options: { requireAuth: boolean; operationId: string; tables?: readonly DataTableShape[]; functions?: ReadonlyMap<string, CompiledFlow> },
): OperationObject {
  const { settings, compiled } = endpoint;
  const key = keyNeeded(settings.auth, options.requireAuth);
  const defaults = new Map(settings.query_params.map((param) => [param.key, param.default ?? null]));
  const outcomes: Outcomes = new Map();
  flowOutcomes(compiled, new FlowTypes(compiled, defaults, options.tables ?? [], options.functions), outcomes);

  const operation: OperationObject = {
    operationId: options.operationId,
    summary: settings.name,
    description: keyDescription(key),
  };
  if (settings.query_params.length > 0) {
    operation.parameters = settings.query_params.map((param) => ({
      name: param.key,
      in: 'query',
      required: param.required === true && (param.default === null || param.default === undefined),
      schema: queryParamSchemaOf(param),
    }));
    if (settings.query_params.some((param) => param.required === true || (param.type !== undefined && param.type !== 'string'))) {
      addOutcome(outcomes, 400, { errorCodes: ['validation_failed'], reasons: ['A query parameter is missing or not of its type'] });
    }
  }
  if (BODY_METHODS.has(settings.method)) {
    const declared = settings.body_schema ?? null;
    const body = declared ?? bodySchemaOf(compiled) ?? { type: 'object' };
    operation.requestBody = {
      required: declared !== null,
      content: { 'application/json': { schema: body }, 'application/x-www-form-urlencoded': { schema: formSchemaOf(body) } },
    };
    addOutcome(outcomes, 400, { errorCodes: ['invalid_json', 'invalid_request'], reasons: ['The body is not valid JSON or form data'] });
    if (declared !== null) addOutcome(outcomes, 400, { errorCodes: ['validation_failed'], reasons: ["The body does not match the endpoint's schema"] });
    addOutcome(outcomes, 413, { errorCodes: ['payload_too_large'], reasons: ['The body is over the size limit'] });
    addOutcome(outcomes, 415, { errorCodes: ['unsupported_media_type'], reasons: ['The body is neither JSON nor form data'] });
  }
  if (settings.signature != null) {
    addOutcome(outcomes, 401, { errorCodes: ['invalid_signature'], reasons: ['The webhook signature is missing, wrong or too old'] });
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
  if (compiled.blocks.some((block) => block.type === 'for_each')) {
    addOutcome(outcomes, 422, { errorCodes: ['iteration_limit'], reasons: ['The flow would do more loop iterations than a request may'] });
  }
  if (compiled.blocks.some((block) => blockRegistry.get(block.type)?.definition.async)) {
    addOutcome(outcomes, 504, { errorCodes: ['flow_timeout'], reasons: ['The flow did not finish in time'] });
  }
  operation.responses = responsesObject(outcomes, key !== 'none');
  // Read by the gateway's MCP server: the operations it offers as tools.
  if (settings.mcp?.enabled === true) operation['x-mcp'] = { description: settings.mcp.description?.trim() || settings.name };
  return operation;
}

/** A query parameter's OpenAPI schema: its type (and values), with its default in that type. */
function queryParamSchemaOf(param: QueryParam): Record<string, unknown> {
  const type = param.type ?? 'string';
  const schema: Record<string, unknown> = type === 'enum' ? { type: 'string', enum: param.values ?? [] } : { type };
  if (param.default !== null && param.default !== undefined) schema.default = queryValueProblem(param, param.default) === null ? typedQueryValue(type, param.default) : param.default;
  return schema;
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

/** Stream Text's answer: events, not one JSON document. */
const EVENT_STREAM_SCHEMA: JsonSchema = {
  type: 'string',
  description: 'Server-Sent Events: `data: {"text": "…"}` per chunk of text, then `event: done` with `data: {"usage": {"input_tokens": n, "output_tokens": n}}`; a failure mid-answer is `event: error` with `data: {"code", "message"}`.',
};

function responsesObject(outcomes: Outcomes, keyed: boolean): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const status of [...outcomes.keys()].sort((a, b) => a - b)) {
    const outcome = outcomes.get(status)!;
    const headerNames = [...(keyed ? RATE_LIMIT_HEADERS : []), ...outcome.headers];
    const content: Record<string, unknown> = {};
    if (outcome.bodies.length > 0 || outcome.errorCodes.size > 0 || outcome.eventStream !== true) content['application/json'] = { schema: outcomeSchema(outcome) };
    if (outcome.eventStream === true) content['text/event-stream'] = { schema: EVENT_STREAM_SCHEMA };
    responses[String(status)] = {
      description: outcome.reasons.join('; '),
      ...(headerNames.length > 0 ? { headers: Object.fromEntries(headerNames.map((name) => [name, { $ref: `#/components/headers/${name}` }])) } : {}),
      content,
    };
  }
  return responses;
}
