import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Schedule } from '../../api/types';
import { fakeApi, project, user, type Reply } from '../../testing/fake-api';
import { renderRoute } from '../../testing/render-route';

const NIGHTLY_ID = 'a5555555-5555-4555-8555-555555555555';
const flow = { nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }], edges: [] };

const nightly: Schedule = {
  id: NIGHTLY_ID,
  project_id: project.id,
  name: 'Nightly clean-up',
  cron: '0 3 * * *',
  timezone: 'Europe/Berlin',
  enabled: true,
  flow,
  status: 'live',
  live_version: 1,
  has_undeployed_changes: false,
  next_runs: ['2026-11-28T02:00:00.000Z'],
  last_run: { time: '2026-11-27T02:00:00.000Z', status: 'ok', duration_ms: 12 },
  created_at: project.created_at,
  updated_at: project.updated_at,
};

/** The PUT is answered when the test says so: what the row shows meanwhile can be looked at. */
function schedulesApi() {
  let stored = nightly;
  let answer: (reply: Reply) => void = () => undefined;
  const { calls } = fakeApi({
    'GET /v1/auth/me': () => [200, { user }],
    'GET /v1/projects': () => [200, { items: [project] }],
    [`GET /v1/projects/${project.id}`]: () => [200, project],
    [`GET /v1/projects/${project.id}/schedules`]: () => [200, { items: [stored] }],
    [`PUT /v1/projects/${project.id}/schedules/${NIGHTLY_ID}`]: ({ body }) =>
      new Promise<Reply>((resolve) => {
        answer = (reply) => {
          if (reply[0] === 200) stored = { ...stored, enabled: (body as { enabled: boolean }).enabled };
          resolve(reply[0] === 200 ? [200, stored] : reply);
        };
      }),
  });
  return { calls, answer: (reply: Reply) => answer(reply) };
}

describe('Schedules list', () => {
  it('shows the clock in words, the next and last run, and the status', async () => {
    schedulesApi();
    renderRoute(`/projects/${project.id}/schedules`);
    const row = await screen.findByRole('row', { name: /Nightly clean-up/ });
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Name', 'Cron', 'Next run', 'Last run', 'Status', 'Actions']);
    expect(within(row).getByText('0 3 * * *')).toBeTruthy();
    expect(within(row).getByText(/every day at 03:00 · Europe\/Berlin/)).toBeTruthy();
    expect(within(row).getByText('Sat, 28 Nov 2026, 03:00')).toBeTruthy();
    expect(within(row).getByText('Live')).toBeTruthy();
  });

  it('the row’s switch turns the schedule off at once and saves it, the rest of the schedule as stored', async () => {
    const { calls, answer } = schedulesApi();
    renderRoute(`/projects/${project.id}/schedules`);
    const toggle = await screen.findByRole('switch', { name: 'Enable Nightly clean-up' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    await userEvent.click(toggle);
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(false));
    expect(within(screen.getByRole('row', { name: /Nightly clean-up/ })).getByText('Off')).toBeTruthy();
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    // While it saves, a second press does nothing and the keyboard's focus stays on the switch.
    expect(toggle.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(toggle);
    await userEvent.click(toggle);
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1);
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ name: 'Nightly clean-up', cron: '0 3 * * *', timezone: 'Europe/Berlin', enabled: false, flow });
    answer([200, null]);
    expect(await screen.findByText('Schedule Nightly clean-up disabled')).toBeTruthy();
    expect((screen.getByRole('switch', { name: 'Enable Nightly clean-up' }) as HTMLInputElement).checked).toBe(false);
  });

  it('a refused save puts the switch back and says why', async () => {
    const { answer } = schedulesApi();
    renderRoute(`/projects/${project.id}/schedules`);
    const toggle = await screen.findByRole('switch', { name: 'Enable Nightly clean-up' });
    await userEvent.click(toggle);
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(false));
    answer([503, { success: false, code: 'unavailable', message: 'The scheduler is not reachable; try again' }]);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Nightly clean-up was not disabled: The scheduler is not reachable; try again');
    await waitFor(() => expect((screen.getByRole('switch', { name: 'Enable Nightly clean-up' }) as HTMLInputElement).checked).toBe(true));
    expect(within(screen.getByRole('row', { name: /Nightly clean-up/ })).getByText('On')).toBeTruthy();
  });
});
