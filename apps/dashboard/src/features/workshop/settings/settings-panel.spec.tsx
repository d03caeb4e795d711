import '@testing-library/jest-dom';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { settingsOf, type WorkshopDoc } from '../model/workshop-document';
import { WorkshopStoreContext } from '../store/workshop-context';
import { createWorkshopStore } from '../store/workshop-store';
import { SettingsPanel } from './settings-panel';
import { ProblemsPanel } from '../diagnostics/problems-panel';
import { DIAGNOSTICS_DEBOUNCE_MS, useLiveDiagnostics } from '../diagnostics/use-live-diagnostics';
import { setTimeout as sleep } from 'node:timers/promises';

const at = { x: 0, y: 0 };
const doc = (): WorkshopDoc => ({
  settings: { kind: 'endpoint', name: 'Greet', method: 'GET', path: '/greet', auth: 'none', query_params: [] },
  nodes: [
    { id: 'start', type: 'start', position: at },
    { id: 'm1', type: 'manipulate_text', position: at, config: { input: 'x', operation: 'uppercase', ref: 'loud' } },
    { id: 'r1', type: 'respond', position: at, config: { status: 200, body: { message: 'hi' } } },
  ],
  edges: [],
});

function LiveProblems() {
  useLiveDiagnostics();
  return <ProblemsPanel />;
}

function setup(selected: string) {
  // A still clock: every edit of one field falls in one undo step, however slow the machine.
  const store = createWorkshopStore(doc(), () => 0);
  store.getState().select([selected]);
  render(
    <WorkshopStoreContext.Provider value={store}>
      <SettingsPanel />
      <LiveProblems />
    </WorkshopStoreContext.Provider>,
  );
  const panel = screen.getByRole('complementary', { name: 'Block settings' });
  const config = (id: string) => store.getState().doc.nodes.find((node) => node.id === id)?.config;
  return { store, panel, config, user: userEvent.setup() };
}

describe('settings panel', () => {
  it("keeps Respond's entries and its raw JSON in step, and does not apply invalid JSON", async () => {
    const { panel, config, user, store } = setup('r1');
    await user.click(within(panel).getByRole('button', { name: 'Add entry' }));
    const keys = within(panel).getAllByRole('textbox', { name: 'Key' });
    await user.type(keys[1], 'count');
    expect(config('r1')?.body).toEqual({ message: 'hi', count: '' });
    await user.click(within(panel).getByRole('button', { name: 'Advanced' }));
    const json = within(panel).getByRole('textbox', { name: 'JSON Response' });
    expect(JSON.parse((json as HTMLTextAreaElement).value)).toEqual({ message: 'hi', count: '' });

    await user.clear(json);
    await user.type(json, '{{"message": "{{result.loud}", "n": 2');
    expect(within(panel).getByRole('alert')).toHaveTextContent(/not valid JSON/i);
    expect(json).toHaveAttribute('aria-invalid', 'true');
    expect(config('r1')?.body).toEqual({ message: 'hi', count: '' });
    await user.type(json, '}');
    expect(config('r1')?.body).toEqual({ message: '{result.loud}', n: 2 });

    await user.click(within(panel).getByRole('button', { name: 'Advanced' }));
    expect(within(panel).getAllByRole('textbox', { name: 'Key' }).map((box) => (box as HTMLInputElement).value)).toEqual(['message', 'n']);
    // Undo (edits of one field in quick succession are one step) shows the old body on the entries side too.
    act(() => store.getState().undo());
    expect(config('r1')?.body).toEqual({ message: 'hi' });
    expect(within(panel).getAllByRole('textbox', { name: 'Key' }).map((box) => (box as HTMLInputElement).value)).toEqual(['message']);
  });

  it('shows an operation-dependent field only while it applies', async () => {
    const { panel, user, config } = setup('m1');
    expect(within(panel).queryByRole('textbox', { name: 'Find' })).toBeNull();
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Operation' }), 'replace');
    expect(within(panel).getByRole('textbox', { name: 'Find' })).toBeInTheDocument();
    expect(within(panel).getByRole('textbox', { name: 'Replace with' })).toBeInTheDocument();
    expect(config('m1')?.operation).toBe('replace');
  });

  it('edits the base settings and at most 10 query parameters', async () => {
    const { panel, user, store } = setup('start');
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Method' }), 'POST');
    expect(within(panel).getByRole('combobox', { name: 'Authentication' })).toHaveValue('none');
    const add = within(panel).getByRole('button', { name: 'Add query parameter' });
    for (let index = 0; index < 10; index++) await user.click(add);
    expect(add).toBeDisabled();
    expect(within(panel).getAllByRole('textbox', { name: 'Parameter key' })).toHaveLength(10);
    await user.click(within(panel).getAllByRole('button', { name: 'Remove parameter' })[0]);
    expect(store.getState().doc.settings).toMatchObject({ method: 'POST', query_params: expect.any(Array) });
    expect(settingsOf(store.getState().doc, 'endpoint').query_params).toHaveLength(9);
  });

  it('flags an empty query parameter key only once the user leaves it, in plain words', async () => {
    const { panel, user } = setup('start');
    const problems = screen.getByRole('region', { name: 'Problems' });
    await user.click(within(panel).getByRole('button', { name: 'Add query parameter' }));
    const key = within(panel).getByRole('textbox', { name: 'Parameter key' });
    // The compile has run on the new row, and has nothing to say about it yet.
    await act(() => sleep(DIAGNOSTICS_DEBOUNCE_MS * 2));
    expect(problems).toHaveTextContent(/Problems \d+ errors?/);
    expect(problems).not.toHaveTextContent('Query parameter');
    expect(key).not.toHaveAttribute('aria-invalid');

    await user.click(key);
    await user.tab();
    await waitFor(() => expect(problems).toHaveTextContent('Query parameter 1: key must not be empty.'));
    expect(key).toHaveAttribute('aria-invalid', 'true');
  });
});
