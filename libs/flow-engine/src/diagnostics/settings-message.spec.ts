import { endpointSettingsSchema } from '../schema/endpoint-settings.schema';
import { validateFlow } from '../compile/compile-flow';
import { settingsMessage } from './settings-message';

describe('settings messages', () => {
  it('names a query parameter by its number, as the browser compile and a refused Save both word it', () => {
    const settings = { name: 'Hi', method: 'GET', path: '/hi', auth: 'none', query_params: [{ key: 'ok', default: null }, { key: '', default: null }] } as const;
    const found = validateFlow({ flow: { nodes: [], edges: [] }, settings: settings as never }).filter((d) => d.field === 'query_params.1.key');
    expect(found.map((d) => d.message)).toEqual(['Query parameter 2: key must not be empty.']);

    // The API reports the schema's own message under the path `query_params.1.key`.
    const refused = endpointSettingsSchema.safeParse(settings).error?.issues[0];
    expect(refused && settingsMessage(refused.path.map(String), refused.message)).toBe('Query parameter 2: key must not be empty');
  });

  it('keeps the settings prefix for a top-level field', () => {
    expect(settingsMessage(['name'], 'is required')).toBe('Endpoint settings: Name is required');
  });
});
