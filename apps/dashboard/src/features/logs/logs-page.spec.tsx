import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, project, user } from '../../testing/fake-api';
import { renderRoute } from '../../testing/render-route';

const endpointId = '44444444-4444-4444-8444-444444444444';
const now = Date.now();
const entry = (i: number, overrides: Record<string, unknown> = {}) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  endpoint: i % 2 ? '/orders' : '/users',
  time: new Date(now - i * 60_000).toISOString(),
  method: i % 3 ? 'GET' : 'POST',
  status: i % 10 === 0 ? 500 : 200,
  duration_ms: 1 + i / 10,
  key_id: null,
  code: i % 10 === 0 ? 'flow_error' : null,
  environment: 'live',
  trigger: 'http',
  streamed: false,
  cache: i === 2 ? 'hit' : i === 4 ? 'miss' : null,
  ...overrides,
});
const entries = Array.from({ length: 60 }, (_, i) => entry(i + 1));

const bucket = (i: number, count: number) => ({
  time: new Date(now - (24 - i) * 3_600_000).toISOString(),
  count,
  errors: Math.floor(count / 10),
  p50_ms: count ? 2 : null,
  p95_ms: count ? 9 : null,
  p99_ms: count ? 20 : null,
});
const stats = {
  from: new Date(now - 86_400_000).toISOString(),
  to: new Date(now).toISOString(),
  interval: 3600,
  totals: { count: 60, errors: 6, p50_ms: 2.1, p95_ms: 9.4, p99_ms: 20 },
  buckets: Array.from({ length: 24 }, (_, i) => bucket(i, i === 5 ? 0 : 3)),
};

function api({ newer = [] as unknown[] } = {}) {
  return fakeApi({
    'GET /v1/auth/me': () => [200, { user }],
    'GET /v1/projects': () => [200, { items: [project] }],
    [`GET /v1/projects/${project.id}`]: () => [200, project],
    [`GET /v1/projects/${project.id}/logs/stats`]: () => [200, stats],
    [`GET /v1/projects/${project.id}/logs`]: ({ query }) => {
      const cursor = query.get('cursor');
      if (query.get('limit') === '200') return [200, { items: newer, next_cursor: null, prev_cursor: null }];
      if (cursor === 'next-1') return [200, { items: entries.slice(50), next_cursor: null, prev_cursor: 'prev-2' }];
      return [200, { items: entries.slice(0, 50), next_cursor: 'next-1', prev_cursor: null }];
    },
    [`GET /v1/projects/${project.id}/logs/${entries[9]!.id}`]: () => [
      200,
      {
        ...entries[9],
        endpoint_id: endpointId,
        key_id: '55555555-5555-4555-8555-555555555555',
        key_name: 'Mobile app',
        query: 'id=7&verbose=1',
        error_node_id: 'decode1',
        message: 'Decode Text (decode1): input is not valid hex',
        details: {
          headers: [
            { name: 'host', value: 'shop.example' },
            { name: 'authorization', value: '[redacted]' },
            { name: 'x-upstream', value: 'Bearer [secret:STRIPE_KEY]' },
          ],
          body: '{"hex":"zz"',
          body_bytes: 12_000,
          body_truncated: true,
          response_bytes: 97,
        },
      },
    ],
    [`GET /v1/projects/${project.id}/logs/${entries[1]!.id}`]: () => [200, { ...entries[1], endpoint_id: endpointId, key_name: null, query: '', error_node_id: null, message: null, details: null }],
  });
}

const rows = () => screen.getAllByRole('row').slice(1);

describe('Logs page', () => {
  it('shows totals, the two charts and 50 entries newest first, with Back disabled on the first page', async () => {
    api();
    renderRoute(`/projects/${project.id}/logs`);
    expect((await screen.findAllByRole('row', { name: /\/orders.*200/ })).length).toBeGreaterThan(0);
    const totals = screen.getByRole('region', { name: 'Totals' });
    expect(within(totals).getByText('60')).toBeTruthy();
    expect(within(totals).getByText('10.0 %')).toBeTruthy();
    expect(within(totals).getByText('9.40 ms')).toBeTruthy();
    const requests = screen.getByRole('img', { name: 'Requests over time' });
    expect(requests.querySelectorAll('rect.bar-ok').length).toBe(23);
    expect(requests.querySelectorAll('rect.bar-error').length).toBe(0);
    const latency = screen.getByRole('img', { name: 'Latency over time' });
    // The empty bucket (index 5) breaks each line in two.
    expect(latency.querySelectorAll('polyline').length).toBe(6);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Endpoint', 'Time', 'Method', 'Status', 'Duration (ms)', 'Actions']);
    expect(rows()).toHaveLength(50);
    expect(within(rows()[0]!).getByText('/orders')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Back' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('pages with Next and Back through the cursors', async () => {
    const { fetchMock } = api();
    renderRoute(`/projects/${project.id}/logs`);
    await screen.findAllByRole('row', { name: /\/orders/ });
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Back' }) as HTMLButtonElement).disabled).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(rows()).toHaveLength(50));
    // Back asks for the previous page by its cursor (not the first page again).
    const cursors = fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://x')).filter((url) => url.pathname.endsWith('/logs')).map((url) => url.searchParams.get('cursor'));
    expect(cursors).toEqual([null, 'next-1', 'prev-2']);
  });

  it('reads the filters from the URL, asks the API with them, and writes changes back to the URL', async () => {
    const { fetchMock } = api();
    const { router } = renderRoute(`/projects/${project.id}/logs?endpoint=/orders&status=5xx&method=POST&range=7d`);
    await screen.findAllByRole('row', { name: /\/orders/ });
    expect((screen.getByRole('textbox', { name: 'Endpoint' }) as HTMLInputElement).value).toBe('/orders');
    expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe('5xx');
    expect((screen.getByRole('combobox', { name: 'Method' }) as HTMLSelectElement).value).toBe('POST');
    expect((screen.getByRole('combobox', { name: 'Time range' }) as HTMLSelectElement).value).toBe('7d');
    const listCall = new URL(String(fetchMock.mock.calls.find(([url]) => String(url).includes('/logs?'))![0]), 'http://x');
    expect(Object.fromEntries(listCall.searchParams)).toMatchObject({ endpoint: '/orders', status: '5xx', method: 'POST', limit: '50' });
    expect(Date.now() - Date.parse(listCall.searchParams.get('from')!)).toBeGreaterThan(6.9 * 86_400_000);

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), '404');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('status')).toBe('404'));
    expect(screen.getByRole('option', { name: /^404/ })).toBeTruthy();
    await userEvent.clear(screen.getByRole('textbox', { name: 'Endpoint' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Endpoint' }), '/users');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('endpoint')).toBe('/users'));
    expect(new URLSearchParams(router.state.location.search).get('range')).toBe('7d');
  });

  it('filters by Environment, kept in the URL as environment; the list and the stats ask for it', async () => {
    const { fetchMock } = api();
    const { router } = renderRoute(`/projects/${project.id}/logs?environment=preview`);
    await screen.findAllByRole('row', { name: /\/orders/ });
    const environment = screen.getByRole('combobox', { name: 'Environment' }) as HTMLSelectElement;
    expect(environment.value).toBe('preview');
    expect([...environment.options].map((option) => option.text)).toEqual(['Live', 'Preview']);
    const asked = (path: string) => fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://x')).filter((url) => url.pathname.endsWith(path));
    expect(asked('/logs')[0]!.searchParams.get('environment')).toBe('preview');
    expect(asked('/logs/stats')[0]!.searchParams.get('environment')).toBe('preview');
    await userEvent.selectOptions(environment, 'live');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).has('environment')).toBe(false));
    await waitFor(() => expect(asked('/logs').at(-1)!.searchParams.get('environment')).toBe('live'));
  });

  it('filters by Trigger (Any, HTTP, Schedule, MCP), kept in the URL as trigger; the list asks for it', async () => {
    const { fetchMock } = api();
    const { router } = renderRoute(`/projects/${project.id}/logs`);
    await screen.findAllByRole('row', { name: /\/orders/ });
    const trigger = screen.getByRole('combobox', { name: 'Trigger' }) as HTMLSelectElement;
    expect([...trigger.options].map((option) => option.text)).toEqual(['Any', 'HTTP', 'Schedule', 'MCP']);
    expect(trigger.value).toBe('');
    const asked = () => fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://x')).filter((url) => url.pathname.endsWith('/logs'));
    expect(asked()[0]!.searchParams.has('trigger')).toBe(false);
    await userEvent.selectOptions(trigger, 'Schedule');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('trigger')).toBe('schedule'));
    await waitFor(() => expect(asked().at(-1)!.searchParams.get('trigger')).toBe('schedule'));
  });

  it('filters by Cache (Any, Hit, Miss), kept in the URL as cache, and marks the answers served from the cache', async () => {
    const { fetchMock } = api();
    const { router } = renderRoute(`/projects/${project.id}/logs`);
    await screen.findAllByRole('row', { name: /\/orders/ });
    expect(within(rows()[1]!).getByText('cached').getAttribute('title')).toMatch(/response cache/);
    expect(within(rows()[3]!).queryByText('cached')).toBeNull();
    const cache = screen.getByRole('combobox', { name: 'Cache' }) as HTMLSelectElement;
    expect([...cache.options].map((option) => option.text)).toEqual(['Any', 'Hit', 'Miss']);
    await userEvent.selectOptions(cache, 'Hit');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('cache')).toBe('hit'));
    const asked = () => fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://x')).filter((url) => url.pathname.endsWith('/logs'));
    await waitFor(() => expect(asked().at(-1)!.searchParams.get('cache')).toBe('hit'));
  });

  it("shows the request's headers (the key redacted), its body's first characters with its size, and the answer's size", async () => {
    api();
    renderRoute(`/projects/${project.id}/logs`);
    const [row] = await screen.findAllByRole('row', { name: /500/ });
    await userEvent.click(within(row!).getByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log details' });
    const headers = await within(dialog).findByRole('table', { name: 'Request headers' });
    expect(within(headers).getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual(['hostshop.example', 'authorization[redacted]', 'x-upstreamBearer [secret:STRIPE_KEY]']);
    expect(within(dialog).getByLabelText('Request body').textContent).toBe('{"hex":"zz"');
    expect(within(dialog).getByText('First 4,096 characters shown (the body is 12.0 KB)')).toBeTruthy();
    expect(within(dialog).getByText(/97 bytes/)).toBeTruthy();
  });

  it('says when a row has no request details, and names a cache hit', async () => {
    api();
    renderRoute(`/projects/${project.id}/logs`);
    await screen.findAllByRole('row', { name: /\/orders/ });
    await userEvent.click(within(rows()[1]!).getByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log details' });
    expect(await within(dialog).findByText('No request headers or body were logged for this run.')).toBeTruthy();
    expect(within(dialog).getByText(/Hit: served from the response cache/)).toBeTruthy();
  });

  it('opens Log details with the key, error, failed block and query, and replays in the Workshop', async () => {
    api();
    const { router } = renderRoute(`/projects/${project.id}/logs`);
    const [row] = await screen.findAllByRole('row', { name: /500/ });
    await userEvent.click(within(row!).getByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log details' });
    expect(await within(dialog).findByText('Mobile app')).toBeTruthy();
    expect(within(dialog).getByText('flow_error')).toBeTruthy();
    expect(within(dialog).getByText('Decode Text (decode1): input is not valid hex')).toBeTruthy();
    expect(within(dialog).getByText('decode1')).toBeTruthy();
    expect(within(dialog).getByText('?id=7&verbose=1')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replay in Workshop' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${project.id}/endpoints/${endpointId}`));
    expect(router.state.location.search).toBe(`?replay=${entries[9]!.id}`);
  });

  it('Live adds new entries at the top and keeps the rest in place', async () => {
    const newer: unknown[] = [];
    api({ newer });
    renderRoute(`/projects/${project.id}/logs`);
    await screen.findAllByRole('row', { name: /\/orders/ });
    const firstBefore = rows()[0]!.textContent;
    await userEvent.click(screen.getByRole('switch', { name: 'Live' }));
    newer.push(entry(0, { id: '99999999-9999-4999-8999-999999999999', endpoint: '/just-now', time: new Date().toISOString() }));
    await screen.findByText('/just-now', undefined, { timeout: 8000 });
    expect(rows()[0]!.textContent).toContain('/just-now');
    expect(rows()[1]!.textContent).toBe(firstBefore);
    expect(rows()).toHaveLength(51);
  }, 15_000);

  it('says so when nothing matches', async () => {
    fakeApi({
      'GET /v1/auth/me': () => [200, { user }],
      'GET /v1/projects': () => [200, { items: [project] }],
      [`GET /v1/projects/${project.id}`]: () => [200, project],
      [`GET /v1/projects/${project.id}/logs/stats`]: () => [200, { ...stats, totals: { count: 0, errors: 0, p50_ms: null, p95_ms: null, p99_ms: null }, buckets: [] }],
      [`GET /v1/projects/${project.id}/logs`]: () => [200, { items: [], next_cursor: null, prev_cursor: null }],
    });
    renderRoute(`/projects/${project.id}/logs`);
    expect(await screen.findByText('No requests match')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Totals' })).getAllByText('—')).toHaveLength(4);
  });

  it('fills in by itself when opened before the first requests reach the logs (the empty state polls)', async () => {
    let arrived = false;
    const { calls } = fakeApi({
      'GET /v1/auth/me': () => [200, { user }],
      'GET /v1/projects': () => [200, { items: [project] }],
      [`GET /v1/projects/${project.id}`]: () => [200, project],
      [`GET /v1/projects/${project.id}/logs/stats`]: () => [200, arrived ? stats : { ...stats, totals: { count: 0, errors: 0, p50_ms: null, p95_ms: null, p99_ms: null }, buckets: [] }],
      [`GET /v1/projects/${project.id}/logs`]: () => [200, { items: arrived ? entries.slice(0, 3) : [], next_cursor: null, prev_cursor: null }],
    });
    renderRoute(`/projects/${project.id}/logs`);
    await screen.findByText('No requests match');
    expect(screen.getByText(/checks for them every few seconds/)).toBeTruthy();
    arrived = true;
    // No reload, no Live: the page asks again on its own.
    await waitFor(() => expect(rows()).toHaveLength(3), { timeout: 20_000 });
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Totals' })).getByText('60')).toBeTruthy(), { timeout: 20_000 });
    const asked = calls.filter((call) => call.path === `/v1/projects/${project.id}/logs`).length;
    // Once rows are there, it stops asking.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(calls.filter((call) => call.path === `/v1/projects/${project.id}/logs`).length).toBe(asked);
  }, 40_000);
});
