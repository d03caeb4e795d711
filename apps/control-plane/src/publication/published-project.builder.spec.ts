import { buildPublishedProject, publishedKeyFields, type ProjectServingState } from './published-project.builder';

const state: ProjectServingState = {
  id: 'p1',
  name: 'Shop',
  subdomain: 'shop',
  requireAuth: true,
  revision: 7,
  integrations: [
    { kind: 'text_generation', provider: 'anthropic', secretEncrypted: 'sealed-a', settings: { default_model: 'claude' } },
    { kind: 'email', provider: 'sendgrid', secretEncrypted: 'sealed-b', settings: { verified_domains: ['shop.example'] } },
  ],
  routes: [
    { endpointId: 'e2', name: 'Users', method: 'GET', path: '/users', auth: 'user', queryParams: [], version: 1, compiled: { c: 2 } },
    { endpointId: 'e1', name: 'Orders', method: 'POST', path: '/orders', auth: 'none', queryParams: [{ key: 'id' }], version: 3, compiled: { c: 1 } },
  ],
  keys: [{ id: 'k1', keyHash: 'h'.repeat(64), permission: 'admin', ratelimitMin: 30 }],
  secrets: [
    { id: 's1', name: 'API_TOKEN', valueEncrypted: 'sealed-t', previewValueEncrypted: 'sealed-tp' },
    { id: 's2', name: 'LOST', valueEncrypted: 'undecryptable', previewValueEncrypted: null },
    { id: 's3', name: 'PLAIN', valueEncrypted: 'sealed-p', previewValueEncrypted: null },
  ],
  functions: [
    { functionId: 'f2', name: 'Tax', version: 1, compiled: { f: 2 } },
    { functionId: 'f1', name: 'Price', version: 4, compiled: { f: 1 } },
  ],
  previewFunctions: [{ functionId: 'f1', name: 'Price', version: 0, compiled: { f: 0 } }],
  schedules: [{ scheduleId: 's1', name: 'Nightly', version: 3, compiled: { s: 1 } }],
  previewRoutes: [{ endpointId: 'e3', name: 'Draft', method: 'GET', path: '/draft', auth: 'admin', queryParams: [], version: 0, compiled: { c: 3 } }],
  tables: [{ id: 't1', name: 'orders', columns: [{ name: 'total', type: 'number', required: true, unique: false, indexed: true }] }],
};
const reseal = (sealed: string) => (sealed === 'undecryptable' ? null : `resealed:${sealed}`);

describe('published project document', () => {
  it('follows the Redis contract, with secrets resealed and routes in a stable order', () => {
    expect(buildPublishedProject(state, reseal)).toEqual({
      id: 'p1',
      subdomain: 'shop',
      require_auth: true,
      revision: 7,
      integrations: {
        text_generation: { provider: 'anthropic', api_key_encrypted: 'resealed:sealed-a', default_model: 'claude' },
        email: { provider: 'sendgrid', api_key_encrypted: 'resealed:sealed-b', verified_domains: ['shop.example'] },
      },
      // Live versions for the live routes, the drafts for the preview address, in a stable order.
      functions: [
        { function_id: 'f1', name: 'Price', version: 4, compiled: { f: 1 } },
        { function_id: 'f2', name: 'Tax', version: 1, compiled: { f: 2 } },
      ],
      preview_functions: [{ function_id: 'f1', name: 'Price', version: 0, compiled: { f: 0 } }],
      schedules: [{ schedule_id: 's1', name: 'Nightly', version: 3, compiled: { s: 1 } }],
      routes: [
        { endpoint_id: 'e1', name: 'Orders', method: 'POST', path: '/orders', auth: 'none', query_params: [{ key: 'id', default: null }], version: 3, compiled: { c: 1 } },
        { endpoint_id: 'e2', name: 'Users', method: 'GET', path: '/users', auth: 'user', query_params: [], version: 1, compiled: { c: 2 } },
      ],
      // Sealed afresh; a value no key opens is left out (a flow reading it fails naming it).
      secrets: [
        { name: 'API_TOKEN', value_encrypted: 'resealed:sealed-t', preview_value_encrypted: 'resealed:sealed-tp' },
        { name: 'PLAIN', value_encrypted: 'resealed:sealed-p', preview_value_encrypted: null },
      ],
      preview_routes: [{ endpoint_id: 'e3', name: 'Draft', method: 'GET', path: '/draft', auth: 'admin', query_params: [], version: 0, compiled: { c: 3 } }],
      tables: [{ id: 't1', name: 'orders', columns: [{ name: 'total', type: 'number', required: true, unique: false, indexed: true }] }],
    });
  });

  it('publishes no integration that is not configured', () => {
    expect(buildPublishedProject({ ...state, integrations: [] }, (s) => s).integrations).toEqual({ text_generation: null, email: null });
  });

  it('writes key records as strings', () => {
    expect(publishedKeyFields('p1', state.keys[0]!)).toEqual({ id: 'k1', project_id: 'p1', permission: 'admin', ratelimit_min: '30' });
  });
});
