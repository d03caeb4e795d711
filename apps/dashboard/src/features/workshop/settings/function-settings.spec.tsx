/** @jest-environment jsdom */
import '../../../testing/jsdom-globals';
import '@testing-library/jest-dom';
import type { CompileContext } from '@flowgate/flow-engine';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createQueryClient } from '../../../api/query-client';
import { fakeApi, project } from '../../../testing/fake-api';
import { ProblemsPanel } from '../diagnostics/problems-panel';
import { useLiveDiagnostics } from '../diagnostics/use-live-diagnostics';
import { FlowContextProvider } from '../flow-context';
import type { SettingsDraft, WorkshopDoc } from '../model/workshop-document';
import { WorkshopStoreContext } from '../store/workshop-context';
import { createWorkshopStore } from '../store/workshop-store';
import { SettingsPanel } from './settings-panel';

const at = { x: 0, y: 0 };
const PRICE_ID = 'f1111111-1111-4111-8111-111111111111';
const context: CompileContext = {
  functions: [
    {
      id: PRICE_ID,
      name: 'Price with tax',
      inputs: [
        { name: 'amount', type: 'number', required: true },
        { name: 'currency', type: 'string', required: false, default: 'EUR' },
      ],
      live: true,
    },
    { id: 'f2222222-2222-4222-8222-222222222222', name: 'Sketch', inputs: [], live: false },
  ],
};

function setup(settings: SettingsDraft, nodes: WorkshopDoc['nodes'], selected: string) {
  fakeApi({});
  const store = createWorkshopStore({ settings, nodes: [{ id: 'start', type: 'start', position: at }, ...nodes], edges: [] }, () => 0);
  store.getState().select([selected]);
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false } });
  function LiveProblems() {
    useLiveDiagnostics(context);
    return <ProblemsPanel />;
  }
  const Workshop = () => (
    <FlowContextProvider value={context}>
      <WorkshopStoreContext.Provider value={store}>
        <SettingsPanel />
        <LiveProblems />
      </WorkshopStoreContext.Provider>
    </FlowContextProvider>
  );
  const router = createMemoryRouter([{ path: '/projects/:projectId/x/:id', element: <Workshop /> }], { initialEntries: [`/projects/${project.id}/x/1`] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const panel = screen.getByRole('complementary', { name: 'Block settings' });
  return { store, panel, user: userEvent.setup() };
}

describe("a function's inputs", () => {
  const fn: SettingsDraft = { kind: 'function', name: 'Price with tax', description: '', inputs: [] };

  it('adds an input (focus in its name), types it, gives it a default of its type and removes it', async () => {
    const { store, panel, user } = setup(fn, [{ id: 'return', type: 'return_value', position: at, config: { value: null } }], 'start');
    const inputs = () => (store.getState().doc.settings as Extract<SettingsDraft, { kind: 'function' }>).inputs;
    expect(within(panel).getByText(/None yet/)).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Add input' }));
    // The row is drawn first; focus follows on the next frame.
    await waitFor(() => expect(within(panel).getByRole('textbox', { name: 'Input name' })).toHaveFocus());
    await user.keyboard('amount');
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Type' }), 'number');
    await user.type(within(panel).getByRole('textbox', { name: 'Default' }), '42');
    await user.click(within(panel).getByRole('checkbox', { name: 'Required' }));
    expect(inputs()).toEqual([{ name: 'amount', type: 'number', required: true, default: 42 }]);

    // A text input keeps what is typed as text.
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Type' }), 'string');
    expect(within(panel).getByRole('textbox', { name: 'Default' })).toHaveValue('');
    await user.type(within(panel).getByRole('textbox', { name: 'Default' }), '42');
    expect(inputs()).toEqual([{ name: 'amount', type: 'string', required: true, default: '42' }]);

    await user.click(within(panel).getByRole('button', { name: 'Remove input amount' }));
    expect(inputs()).toEqual([]);
    act(() => store.getState().undo());
    expect(inputs()).toHaveLength(1);
  });

  it('flags a name a flow cannot read, at the field and in Problems', async () => {
    const { panel, user } = setup({ ...fn, inputs: [{ name: 'two words', type: 'string', required: false }] }, [{ id: 'return', type: 'return_value', position: at, config: { value: null } }], 'start');
    const name = within(panel).getByRole('textbox', { name: 'Input name' });
    await user.click(name);
    await user.tab();
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByRole('region', { name: 'Problems' })).toHaveTextContent('Input 1 (name): must start with a letter or _ and contain only letters, digits and _.');
  });
});

describe("Call Function's fields", () => {
  const endpoint: SettingsDraft = { kind: 'endpoint', name: 'Checkout', method: 'POST', path: '/checkout', auth: 'none', query_params: [] };
  const call = (config: Record<string, unknown>) => [{ id: 'call', type: 'call_function', position: at, config: { ref: 'priced', ...config } }];

  it("lists the project's functions by name, then gives one field per input of the chosen one", async () => {
    const { store, panel, user } = setup(endpoint, call({ args: {} }), 'call');
    const args = () => store.getState().doc.nodes.find((node) => node.id === 'call')?.config?.args;
    const chosen = within(panel).getByRole('combobox', { name: 'Function' });
    expect(within(chosen).getAllByRole('option').map((option) => option.textContent)).toEqual(['Choose a function', 'Price with tax', 'Sketch (not deployed)']);
    await user.selectOptions(chosen, 'Price with tax');
    const inputs = within(panel).getByRole('group', { name: 'Inputs of Price with tax' });
    expect(within(inputs).getByText('number, required')).toBeInTheDocument();
    expect(within(inputs).getByText('string, default "EUR"')).toBeInTheDocument();

    await user.click(within(inputs).getByRole('textbox', { name: 'amount' }));
    await user.keyboard('42');
    await user.click(within(inputs).getByRole('textbox', { name: 'currency' }));
    await user.keyboard('USD');
    expect(args()).toEqual({ amount: 42, currency: 'USD' });
  });

  it('says a required input has no value and names arguments the function does not take', async () => {
    const { store, panel, user } = setup(endpoint, call({ function: PRICE_ID, args: { cost: 3 } }), 'call');
    await within(panel).findByText(/Not inputs of Price with tax: cost/);
    const problems = screen.getByRole('region', { name: 'Problems' });
    await waitFor(() => expect(problems).toHaveTextContent('the input amount of Price with tax is required; give it a value.'));
    await user.click(within(panel).getByRole('button', { name: 'Remove them' }));
    expect(store.getState().doc.nodes.find((node) => node.id === 'call')?.config?.args).toEqual({});
  });

  it('a function with no inputs says so', async () => {
    const { panel, user } = setup(endpoint, call({ args: {} }), 'call');
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Function' }), 'Sketch (not deployed)');
    expect(within(panel).getByText('Sketch takes no inputs.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('region', { name: 'Problems' })).toHaveTextContent('the function Sketch has no live version; deploy it first.'));
  });
});
