import '@testing-library/jest-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, project } from '../../../testing/fake-api';
import type { WorkshopDoc } from '../model/workshop-document';
import { WorkshopStoreContext } from '../store/workshop-context';
import { createWorkshopStore } from '../store/workshop-store';
import { AssistantPanel } from './assistant-panel';

const endpointId = '33333333-3333-4333-8333-333333333333';
const draftPath = `POST /v1/projects/${project.id}/assistant/drafts`;
const at = { x: 0, y: 0 };
const doc: WorkshopDoc = {
  settings: { kind: 'endpoint', name: 'New endpoint', method: 'GET', path: '/new', auth: 'none', query_params: [] },
  nodes: [{ id: 'start', type: 'start', position: at }],
  edges: [],
};
const draft = {
  settings: { name: 'Greet', method: 'GET', path: '/greet', auth: 'none', query_params: [{ key: 'name', default: null }] },
  flow: {
    nodes: [
      { id: 'start', type: 'start', position: at, config: {} },
      { id: 'n1', type: 'respond', position: { x: 240, y: 0 }, config: { body: { greeting: 'Hello {params.name}' } } },
    ],
    edges: [{ id: 'e1', source: 'start', target: 'n1', sourceHandle: null }],
  },
  explanation: 'Answers a greeting.',
  diagnostics: [{ severity: 'warning', code: 'no_respond', node_id: null, field: null, message: 'A path can end without Respond.' }],
  usage: { input_tokens: 10, output_tokens: 5 },
};

function renderPanel(initialPrompt?: string) {
  const store = createWorkshopStore(doc);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <WorkshopStoreContext.Provider value={store}>
        <AssistantPanel projectId={project.id} endpointId={endpointId} initialPrompt={initialPrompt} onClose={() => undefined} />
      </WorkshopStoreContext.Provider>
    </QueryClientProvider>,
  );
  return { store, panel: () => screen.getByRole('complementary', { name: 'Assistant' }) };
}

const available = { 'GET /v1/assistant': () => [200, { available: true, drafts_per_hour: 30 }] as [number, unknown] };

describe('Assistant panel', () => {
  it('drafts from the description, previews the changes, and applies the draft as one undo step', async () => {
    const { calls } = fakeApi({ ...available, [draftPath]: () => [200, draft] });
    const { store, panel } = renderPanel();
    const user = userEvent.setup();
    await user.type(await within(panel()).findByRole('textbox', { name: 'Describe the endpoint' }), 'Greet people by name');
    await user.click(within(panel()).getByRole('button', { name: 'Draft it' }));

    expect(await within(panel()).findByText('Answers a greeting.')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ prompt: 'Greet people by name', endpoint_id: endpointId });
    expect(within(panel()).getByRole('list', { name: 'Remaining problems' })).toHaveTextContent('A path can end without Respond.');
    expect(within(panel()).getByRole('list', { name: 'Blocks added' })).toHaveTextContent('Respond (n1)');
    expect(within(panel()).getByRole('list', { name: 'Settings changed' })).toHaveTextContent('Path: /new → /greet');
    expect(store.getState().doc).toBe(doc);

    await user.click(within(panel()).getByRole('button', { name: 'Apply draft' }));
    expect(store.getState().doc.nodes.map((node) => node.id)).toEqual(['start', 'n1']);
    expect(store.getState().doc.settings).toMatchObject({ path: '/greet' });
    expect(within(panel()).queryByRole('button', { name: 'Apply draft' })).not.toBeInTheDocument();
    store.getState().undo();
    expect(store.getState().doc).toEqual(doc);
  });

  it('discards a draft without touching the canvas', async () => {
    fakeApi({ ...available, [draftPath]: () => [200, draft] });
    const { store, panel } = renderPanel('Greet people');
    await user().click(await within(panel()).findByRole('button', { name: 'Discard' }));
    expect(within(panel()).queryByText('Answers a greeting.')).not.toBeInTheDocument();
    expect(store.getState().doc).toBe(doc);
    expect(store.temporal.getState().pastStates).toHaveLength(0);
  });

  it('shows the progress while the model works, and Cancel goes back to the form', async () => {
    fakeApi({ ...available, [draftPath]: () => new Promise(() => undefined) });
    const { panel } = renderPanel('Something slow');
    expect(await within(panel()).findByRole('progressbar', { name: 'Drafting…' })).toBeInTheDocument();
    await user().click(within(panel()).getByRole('button', { name: 'Cancel' }));
    expect(within(panel()).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(panel()).getByRole('textbox', { name: 'Describe the endpoint' })).toHaveValue('Something slow');
  });

  it('asks for a description instead of sending an empty one', async () => {
    const { calls } = fakeApi(available);
    const { panel } = renderPanel();
    await user().click(await within(panel()).findByRole('button', { name: 'Draft it' }));
    expect(within(panel()).getByRole('alert')).toHaveTextContent('Describe what the endpoint should do first.');
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('says how to enable the assistant when the operator has not, with no Draft button', async () => {
    fakeApi({ 'GET /v1/assistant': () => [200, { available: false, drafts_per_hour: 30 }] });
    const { panel } = renderPanel();
    expect(await within(panel()).findByText(/FLOWGATE_ASSISTANT_API_KEY/)).toBeInTheDocument();
    expect(within(panel()).queryByRole('button', { name: 'Draft it' })).not.toBeInTheDocument();
  });

  it('shows the model’s failure and keeps the description', async () => {
    fakeApi({ ...available, [draftPath]: () => [502, { success: false, code: 'assistant_failed', message: 'The assistant’s model refused the request: overloaded (HTTP 529)' }] });
    const { panel } = renderPanel('Anything');
    expect(await within(panel()).findByRole('alert')).toHaveTextContent('overloaded (HTTP 529)');
    expect(within(panel()).getByRole('textbox', { name: 'Describe the endpoint' })).toHaveValue('Anything');
  });
});

const user = () => userEvent.setup();
