import '@testing-library/jest-dom';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WorkshopDoc } from '../model/workshop-document';
import { WorkshopStoreContext } from '../store/workshop-context';
import { createWorkshopStore } from '../store/workshop-store';
import { inputNames } from './code-field';
import { SettingsPanel } from './settings-panel';

const at = { x: 0, y: 0 };
const doc = (): WorkshopDoc => ({
  settings: { kind: 'endpoint', name: 'Sum', method: 'POST', path: '/sum', auth: 'none', query_params: [] },
  nodes: [
    { id: 'start', type: 'start', position: at },
    { id: 'c1', type: 'run_code', position: at, config: { code: 'return input.a', ref: 'sum', timeout_ms: 250 } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'c1' }],
});

describe("Run Code's settings", () => {
  it('offer the Code editor, the Inputs list with Add input / Remove input, and Timeout (ms)', async () => {
    const store = createWorkshopStore(doc(), () => 0);
    store.getState().select(['c1']);
    render(
      <WorkshopStoreContext.Provider value={store}>
        <SettingsPanel />
      </WorkshopStoreContext.Provider>,
    );
    const panel = screen.getByRole('complementary', { name: 'Block settings' });
    const config = () => store.getState().doc.nodes.find((node) => node.id === 'c1')?.config;
    const user = userEvent.setup();

    expect(within(panel).getByRole('textbox', { name: 'Code' })).toHaveTextContent('return input.a');
    expect(within(panel).getByRole('spinbutton', { name: 'Timeout (ms)' })).toHaveValue(250);
    await user.click(within(panel).getByRole('button', { name: 'Add input' }));
    await user.type(within(panel).getByRole('textbox', { name: 'Input name' }), 'a');
    expect(config()?.inputs).toEqual([{ name: 'a', value: '' }]);
    await user.click(within(panel).getByRole('button', { name: 'Remove input' }));
    expect(config()?.inputs).toEqual([]);
  });

  it('complete the names of the inputs given, skipping rows without a name', () => {
    expect(inputNames([{ name: 'orders', value: '{body.orders}' }, { name: '', value: 1 }, { value: 2 }, 'x'])).toEqual(['orders']);
    expect(inputNames(undefined)).toEqual([]);
  });
});
