import type { DataTableShape } from '@flowgate/contracts';
import type { CompiledFlow } from '../compile/compiled-flow';
import type { EndpointSettings } from '../schema/endpoint-settings.schema';
import { describeEndpoint, SECURITY_SCHEME, type DescribedEndpoint } from './describe-endpoint';
import { OperationIds } from './operation-id';

export const OPENAPI_VERSION = '3.1.0';

export interface ApiDescriptionInput {
  /** The project's name (the document's title). */
  title: string;
  /** Changes with every publication (the project's serving revision). */
  version: string;
  /** `{scheme}://{subdomain}.{GATEWAY_DOMAIN}`: the one server. */
  baseUrl: string;
  requireAuth: boolean;
  /** The live endpoints. */
  endpoints: DescribedEndpoint[];
  /** The project's data tables: the rows the table blocks give are typed from their columns. */
  tables?: readonly DataTableShape[];
  /** The live functions' compiled flows by id: Call Function's result is typed from their Return blocks. */
  functions?: ReadonlyMap<string, CompiledFlow>;
}

export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, Record<string, unknown>> };

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/**
 * The OpenAPI 3.1 document of a project's live endpoints. Paths are written without `/api`
 * (the gateway serves both forms); the admin key API is not part of it.
 */
export function describeApi(input: ApiDescriptionInput): OpenApiDocument {
  const ids = new OperationIds();
  const paths: Record<string, Record<string, unknown>> = {};
  const ordered = [...input.endpoints].sort((a, b) => a.settings.path.localeCompare(b.settings.path) || methodOrder(a.settings.method) - methodOrder(b.settings.method));
  for (const endpoint of ordered) {
    const { method, path, name } = endpoint.settings;
    const operationId = ids.take(name, `${method} ${path}`);
    (paths[path] ??= {})[method.toLowerCase()] = describeEndpoint(endpoint, { requireAuth: input.requireAuth, operationId, tables: input.tables, functions: input.functions });
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: input.title,
      version: input.version,
      description: 'The live endpoints of this Flowgate project. Every path is also served under `/api` (`/api/orders` = `/orders`).',
    },
    servers: [{ url: input.baseUrl }],
    paths,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: { type: 'http', scheme: 'bearer', description: 'An API key of this project, sent as `Authorization: Bearer <key>`.' },
      },
      headers: {
        'RateLimit-Limit': integerHeader("Requests the key may make in any 60 seconds."),
        'RateLimit-Remaining': integerHeader('Requests left in the current 60-second window.'),
        'RateLimit-Reset': integerHeader('Seconds until the window frees a request.'),
        'Retry-After': integerHeader('Seconds to wait before retrying.'),
        'WWW-Authenticate': { description: 'The authentication scheme: `Bearer`.', schema: { type: 'string' } },
      },
    },
  };
}

const METHOD_ORDER: ReadonlyArray<EndpointSettings['method']> = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const methodOrder = (method: EndpointSettings['method']): number => METHOD_ORDER.indexOf(method);
