import '@testing-library/jest-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, project } from '../../../testing/fake-api';
import { settingsOf, type EndpointSettingsDraft, type WorkshopDoc } from '../model/workshop-document';
import { WorkshopStoreContext } from '../store/workshop-context';
import { createWorkshopStore } from '../store/workshop-store';
import { replayForm } from './test-request';
import { TestPanel } from './test-panel';
import { TraceBadge } from './trace-badge';
import type { TestRunResult } from './test-run-types';
import { useTraceStore } from './trace-store';

const endpointId = '33333333-3333-4333-8333-333333333333';
const runPath = `/v1/projects/${project.id}/endpoints/${endpointId}/test-runs`;
const at = { x: 0, y: 0 };

const doc = (method: EndpointSettingsDraft['method'] = 'POST'): WorkshopDoc => ({
  settings: { kind: 'endpoint', name: 'Greet', method, path: '/greet', auth: 'none', query_params: [{ key: 'name', default: 'world' }, { key: 'lang', default: null }] },
  nodes: [
    { id: 'start', type: 'start', position: at },
    { id: 'n1', type: 'set_variable', position: at, config: { name: 'greeting', value: 'Hello {params.name}' } },
    { id: 'c1', type: 'condition', position: at, config: { left: '{params.name}', operator: 'eq', right: 'Ada' } },
    { id: 'm1', type: 'send_email', position: at, config: { to: 'a@b.test', from: 'S <s@shop.test>', subject: 'Hi', body: 'x' } },
    { id: 'r1', type: 'respond', position: at, config: { body: { message: '{local.greeting}' } } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'n1' },
    { id: 'e2', source: 'n1', target: 'c1' },
    { id: 'e3', source: 'c1', target: 'm1', sourceHandle: 'true' },
    { id: 'e4', source: 'm1', target: 'r1' },
  ],
});

const result: TestRunResult = {
  response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: { message: 'Hello Ada' } },
  duration_ms: 2.7,
  diagnostics: [],
  trace: [
    { node_id: 'n1', type: 'set_variable', label: 'Set Variable', status: 'ok', duration_ms: 0.02, output: 'Hello Ada' as never },
    { node_id: 'c1', type: 'condition', label: 'Condition', status: 'ok', branch: 'true', duration_ms: 0.01, output: true as never },
    {
      node_id: 'm1', type: 'send_email', label: 'Send Email', status: 'skipped', skipped_reason: 'dry_run', duration_ms: 0.1,
      output: { to: 'a@b.test', from: 'S <s@shop.test>', subject: 'Hi', body: 'A long message body' },
    },
    { node_id: 'r1', type: 'respond', label: 'Respond', status: 'ok', duration_ms: 0.01, output: { status: 200, body: { message: 'Hello Ada' } } },
  ],
};

function renderPanel(options: { replay?: ReturnType<typeof replayForm> | null; method?: EndpointSettingsDraft['method'] } = {}) {
  const store = createWorkshopStore(doc(options.method));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const onClose = jest.fn();
  const view = render(
    <QueryClientProvider client={client}>
      <WorkshopStoreContext.Provider value={store}>
        <TestPanel projectId={project.id} endpointId={endpointId} replay={options.replay ?? null} onClose={onClose} />
        <div data-testid="canvas">
          {['n1', 'c1', 'm1', 'r1'].map((id) => (
            <div key={id} data-testid={`node-${id}`}>
              <TraceBadge nodeId={id} />
            </div>
          ))}
        </div>
      </WorkshopStoreContext.Provider>
    </QueryClientProvider>,
  );
  return { ...view, store, onClose };
}

beforeEach(() => {
  localStorage.clear();
  useTraceStore.getState().clear();
});

describe('Test panel', () => {
  it('offers the request form: the endpoint method, path, one field per query parameter at its default, headers, body, emails off', () => {
    renderPanel();
    const panel = screen.getByRole('region', { name: 'Test' });
    expect(within(panel).getByRole('textbox', { name: 'Method' })).toHaveValue('POST');
    expect(within(panel).getByRole('textbox', { name: 'Path' })).toHaveValue('/greet');
    expect(within(panel).getByRole('textbox', { name: 'name' })).toHaveValue('world');
    expect(within(panel).getByRole('textbox', { name: 'lang' })).toHaveValue('');
    expect(within(panel).getByRole('textbox', { name: 'Headers' })).toHaveValue('');
    expect(within(panel).getByRole('textbox', { name: 'Body' })).toBeInTheDocument();
    expect(within(panel).getByRole('checkbox', { name: 'Send emails for real' })).not.toBeChecked();
  });

  it('has no Body field for a GET endpoint', () => {
    renderPanel({ method: 'GET' });
    expect(screen.queryByRole('textbox', { name: 'Body' })).not.toBeInTheDocument();
  });

  it('runs the unsaved flow with the request, shows the response, and each block on the canvas', async () => {
    const { calls } = fakeApi({ [`POST ${runPath}`]: () => [200, result] });
    const { store } = renderPanel();
    const user = userEvent.setup();
    await user.clear(screen.getByRole('textbox', { name: 'name' }));
    await user.type(screen.getByRole('textbox', { name: 'name' }), 'Ada');
    await user.type(screen.getByRole('textbox', { name: 'Headers' }), 'X-Mood: happy');
    await user.type(screen.getByRole('textbox', { name: 'Body' }), '{{"who": "Bob"}');
    await user.click(screen.getByRole('button', { name: 'Run test' }));

    const answer = await screen.findByRole('region', { name: 'Test result' });
    expect(within(answer).getByText('200')).toBeInTheDocument();
    expect(within(answer).getByLabelText('Response body')).toHaveTextContent('"message": "Hello Ada"');
    expect(calls[0]!.body).toEqual({
      flow: { nodes: store.getState().doc.nodes, edges: store.getState().doc.edges },
      settings: expect.objectContaining({ method: 'POST', path: '/greet' }),
      request: { method: 'POST', path: '/greet', query: { name: 'Ada' }, headers: { 'x-mood': 'happy' }, body: { who: 'Bob' } },
      send_email: false,
    });
    expect(screen.getByTestId('node-n1')).toHaveTextContent('ok');
    expect(screen.getByTestId('node-n1')).toHaveTextContent('Hello Ada');
    expect(screen.getByTestId('node-c1')).toHaveTextContent('branch true');
    expect(screen.getByTestId('node-m1')).toHaveTextContent('skipped: email shown, not sent');
    expect(useTraceStore.getState().takenEdges).toEqual(new Set(['e1', 'e2', 'e3', 'e4']));
  });

  it('shows a request that got no answer as failed, with its reason, in the list and on the canvas, though the flow went on', async () => {
    const message = 'the request failed: connection failed (ECONNREFUSED)';
    fakeApi({
      [`POST ${runPath}`]: () => [
        200,
        {
          ...result,
          trace: [
            {
              node_id: 'n1', type: 'http_request', label: 'Send External Request', status: 'error', error_in_result: true, duration_ms: 3.2,
              error: { code: 'connection_failed', message }, output: { status: null, headers: {}, body: null, error: 'connection_failed' },
            },
            result.trace[3],
          ],
        } satisfies TestRunResult,
      ],
    });
    renderPanel();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Run test' }));
    const list = await screen.findByRole('list', { name: 'Blocks run' });
    const step = within(list).getByRole('button', { name: /Send External Request/ });
    expect(step).toHaveTextContent('error · went on, its result says why');
    expect(step).not.toHaveTextContent(/\bok\b/);
    expect(within(list).getByText(message)).toBeInTheDocument();
    const badge = screen.getByTestId('node-n1');
    expect(badge).toHaveTextContent('error · went on');
    expect(badge).toHaveTextContent('connection failed (ECONNREFUSED)');
    expect(badge.querySelector('[data-trace-status]')?.getAttribute('data-trace-status')).toBe('error');
  });

  it('shows the full output of the selected block', async () => {
    fakeApi({ [`POST ${runPath}`]: () => [200, result] });
    renderPanel();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Run test' }));
    await user.click(await screen.findByRole('button', { name: /Send Email/ }));
    const selected = await screen.findByRole('region', { name: 'Selected block output' });
    expect(within(selected).getByLabelText('Output of Send Email')).toHaveTextContent('"body": "A long message body"');
  });

  it('names the block and the reason when the flow cannot run (400 invalid_flow)', async () => {
    fakeApi({
      [`POST ${runPath}`]: () => [
        400,
        { success: false, code: 'invalid_flow', message: 'The flow cannot run; fix the errors listed in details', details: [{ node_id: 'n1', field: 'name', message: 'Set Variable (n1): Name is required' }] },
      ],
    });
    renderPanel();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Run test' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The flow cannot run');
    expect(alert).toHaveTextContent('Set Variable (n1): Name is required');
  });

  it('refuses a body that is not JSON before sending anything', async () => {
    const { calls } = fakeApi({});
    renderPanel();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Body' }), 'not json');
    await user.click(screen.getByRole('button', { name: 'Run test' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The body is not valid JSON');
    expect(screen.getByRole('textbox', { name: 'Body' })).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);
  });

  it('keeps the last request per endpoint for the next visit', async () => {
    fakeApi({ [`POST ${runPath}`]: () => [200, result] });
    const first = renderPanel();
    const user = userEvent.setup();
    await user.clear(screen.getByRole('textbox', { name: 'name' }));
    await user.type(screen.getByRole('textbox', { name: 'name' }), 'Grace');
    await user.type(screen.getByRole('textbox', { name: 'Headers' }), 'x-a: 1');
    await user.click(screen.getByRole('button', { name: 'Run test' }));
    await screen.findByRole('region', { name: 'Test result' });
    first.unmount();
    renderPanel();
    expect(screen.getByRole('textbox', { name: 'name' })).toHaveValue('Grace');
    expect(screen.getByRole('textbox', { name: 'Headers' })).toHaveValue('x-a: 1');
    expect(screen.getByRole('checkbox', { name: 'Send emails for real' })).not.toBeChecked();
  });

  it('follows the endpoint path when it is edited, and forgets a kept path that no longer reaches the endpoint', () => {
    const { store } = renderPanel();
    act(() => store.getState().setSettings({ path: '/hello' }, 'path'));
    expect(screen.getByRole('textbox', { name: 'Path' })).toHaveValue('/hello');
    localStorage.setItem(`flowgate.test-request.${endpointId}`, JSON.stringify({ path: '/api/old', query: {}, headers: '', body: '' }));
    renderPanel();
    expect(screen.getAllByRole('textbox', { name: 'Path' })[1]).toHaveValue('/greet');
  });

  it('opens with a replayed log request (its path and query) and runs it at once', async () => {
    const { calls } = fakeApi({ [`POST ${runPath}`]: () => [200, result] });
    const replay = replayForm(settingsOf(doc(), 'endpoint'), { method: 'POST', endpoint: '/api/greet', query: 'name=Linus&lang=fi&other=1' });
    renderPanel({ replay });
    expect(screen.getByRole('textbox', { name: 'Path' })).toHaveValue('/api/greet');
    expect(screen.getByRole('textbox', { name: 'name' })).toHaveValue('Linus');
    expect(screen.getByRole('textbox', { name: 'lang' })).toHaveValue('fi');
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toMatchObject({ request: { path: '/api/greet', query: { name: 'Linus', lang: 'fi' } } });
  });

  it('sends emails for real only when asked', async () => {
    const { calls } = fakeApi({ [`POST ${runPath}`]: () => [200, result] });
    renderPanel();
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Send emails for real' }));
    await user.click(screen.getByRole('button', { name: 'Run test' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toMatchObject({ send_email: true });
  });
});
