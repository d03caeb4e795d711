import '@testing-library/jest-dom';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FlowContextProvider } from '../flow-context';
import { settingsOf, type EndpointSettingsDraft, type WorkshopDoc } from '../model/workshop-document';
import { WorkshopStoreContext } from '../store/workshop-context';
import { createWorkshopStore } from '../store/workshop-store';
import { SettingsPanel } from './settings-panel';

const doc = (settings: Partial<EndpointSettingsDraft>): WorkshopDoc => ({
  settings: { kind: 'endpoint', name: 'Orders', method: 'POST', path: '/orders', auth: 'none', query_params: [], ...settings },
  nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }],
  edges: [],
});

function setup(settings: Partial<EndpointSettingsDraft>) {
  const store = createWorkshopStore(doc(settings), () => 0);
  store.getState().select(['start']);
  render(
    <WorkshopStoreContext.Provider value={store}>
      <FlowContextProvider value={{ secret_names: ['STRIPE_WHSEC', 'OTHER'] }}>
        <SettingsPanel />
      </FlowContextProvider>
    </WorkshopStoreContext.Provider>,
  );
  const panel = screen.getByRole('complementary', { name: 'Block settings' });
  return { panel, settings: () => settingsOf(store.getState().doc, 'endpoint'), user: userEvent.setup() };
}

describe('endpoint settings: inputs, signature, cache', () => {
  it('types a query parameter, lists an enum’s values and marks it required', async () => {
    const { panel, settings, user } = setup({ method: 'GET', query_params: [{ key: 'sort', default: null }] });
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Type' }), 'enum');
    await user.type(within(panel).getByRole('textbox', { name: 'Values' }), 'asc, desc');
    await user.click(within(panel).getByRole('checkbox', { name: 'Required' }));
    expect(settings().query_params).toEqual([{ key: 'sort', default: null, type: 'enum', values: ['asc', 'desc'], required: true }]);
  });

  it('offers an enum’s values and true or false as the default, and No default clears it', async () => {
    const { panel, settings, user } = setup({ method: 'GET', query_params: [{ key: 'sort', default: null, type: 'enum', values: ['newest', 'oldest'] }, { key: 'all', default: null, type: 'boolean' }] });
    const [sortDefault, allDefault] = within(panel).getAllByRole('combobox', { name: 'Default value' });
    expect(within(sortDefault!).getAllByRole('option').map((option) => option.textContent)).toEqual(['No default', 'newest', 'oldest']);
    await user.selectOptions(sortDefault!, 'oldest');
    await user.selectOptions(allDefault!, 'false');
    expect(settings().query_params.map((param) => param.default)).toEqual(['oldest', 'false']);
    await user.selectOptions(sortDefault!, 'No default');
    expect(settings().query_params[0]!.default).toBeNull();
    // A free-text type keeps a textbox.
    await user.selectOptions(within(panel).getAllByRole('combobox', { name: 'Type' })[1]!, 'integer');
    expect(within(panel).getByRole('textbox', { name: 'Default value' })).toBeInTheDocument();
  });

  it('keeps listing a default that is no longer among the enum’s values, so its problem can be seen', () => {
    const { panel } = setup({ method: 'GET', query_params: [{ key: 'sort', default: 'popular', type: 'enum', values: ['newest'] }] });
    const sortDefault = within(panel).getByRole('combobox', { name: 'Default value' });
    expect((sortDefault as HTMLSelectElement).value).toBe('popular');
  });

  it('edits the body as fields, nested objects included, and shows the same schema as JSON', async () => {
    const { panel, settings, user } = setup({});
    const body = within(panel).getByRole('group', { name: 'Body' });
    await user.click(within(body).getByRole('button', { name: 'Add field' }));
    const name = within(body).getByRole('textbox', { name: 'Field name' });
    await user.clear(name);
    await user.type(name, 'customer');
    await user.click(within(body).getByRole('checkbox', { name: 'Required' }));
    await user.click(within(body).getByRole('button', { name: 'Add field' }));
    await user.selectOptions(within(body).getAllByRole('combobox', { name: 'Type' })[1], 'object');
    expect(settings().body_schema).toEqual({ type: 'object', required: ['customer'], properties: { customer: { type: 'string' }, field: { type: 'object', properties: {} } } });

    await user.click(within(body).getByRole('button', { name: 'Edit as JSON Schema' }));
    const json = within(body).getByRole('textbox', { name: 'JSON Schema' });
    expect(JSON.parse((json as HTMLTextAreaElement).value)).toEqual(settings().body_schema);
    await user.clear(json);
    await user.type(json, '{{"type": "object", "properties": {{"qty": {{"type": "integer"}}}');
    expect(settings().body_schema).toEqual({ type: 'object', properties: { qty: { type: 'integer' } } });
    await user.click(within(body).getByRole('button', { name: 'Edit as JSON Schema' }));
    expect(within(body).getByRole('textbox', { name: 'Field name' })).toHaveValue('qty');
  });

  it('chooses a signature scheme and a signing secret among the project’s secrets; HMAC asks for its header', async () => {
    const { panel, settings, user } = setup({});
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Signature scheme' }), 'Stripe');
    expect(settings().signature).toEqual({ scheme: 'stripe', secret: 'STRIPE_WHSEC', tolerance_s: 300 });
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Signing secret' }), 'OTHER');
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Signature scheme' }), 'HMAC-SHA256');
    await user.type(within(panel).getByRole('textbox', { name: 'Signature header' }), 'X-Signature');
    expect(settings().signature).toEqual({ scheme: 'hmac_sha256', secret: 'OTHER', tolerance_s: 300, header: 'X-Signature' });
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Signature scheme' }), 'None');
    expect(settings().signature).toBeNull();
  });

  it('exposes the endpoint as an MCP tool with a description', async () => {
    const { panel, settings, user } = setup({});
    await user.click(within(panel).getByRole('switch', { name: 'Expose as MCP tool' }));
    await user.type(within(panel).getByRole('textbox', { name: 'Tool description' }), 'Creates an order');
    expect(settings().mcp).toEqual({ enabled: true, description: 'Creates an order' });
    await user.click(within(panel).getByRole('switch', { name: 'Expose as MCP tool' }));
    expect(settings().mcp).toBeNull();
  });

  it('offers the cache on GET endpoints only', async () => {
    const { panel, settings, user } = setup({ method: 'GET' });
    expect(within(panel).queryByRole('group', { name: 'Body' })).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('switch', { name: 'Cache answers' }));
    await user.type(within(panel).getByRole('textbox', { name: 'Vary by headers' }), 'Accept-Language, X-Tenant');
    await user.click(within(panel).getByRole('checkbox', { name: 'One cache per key' }));
    expect(settings().cache).toEqual({ ttl_s: 60, vary_query: true, vary_headers: ['Accept-Language', 'X-Tenant'], per_key: true });
  });
});
