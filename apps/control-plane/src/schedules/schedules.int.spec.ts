import { SCHEDULES_QUEUE_NAME, scheduleSchedulerId } from '@flowgate/contracts';
import { bullmqPrefix } from '@flowgate/platform';
import { Queue } from 'bullmq';
import { type TestAccount, type TestApp, publishedProject, useTestApp } from '../testing/test-app';

const position = { x: 0, y: 0 };
const respondFlow = (body: unknown) => ({
  nodes: [
    { id: 'start', type: 'start', position },
    { id: 'r', type: 'respond', position, config: { body } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'r' }],
});

describe('schedules: REST lifecycle, clock, job schedulers (real PostgreSQL and Redis)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let queue: Queue;
  useTestApp((app, account) => ([t, owner] = [app, account]));
  beforeAll(() => {
    queue = new Queue(SCHEDULES_QUEUE_NAME, {
      connection: { url: t.config.redisUrl, maxRetriesPerRequest: null },
      prefix: bullmqPrefix(t.config.bullmqPrefix, { url: t.config.redisUrl, clusterNodes: t.config.redisClusterNodes }),
    });
  });
  afterAll(() => queue.close());

  async function setup() {
    const project = await t.createProject(owner);
    const base = `/v1/projects/${project.id}/schedules`;
    const post = (path: string, body?: unknown) => t.http().post(base + path).set(owner.auth).send(body as object);
    const put = (path: string, body: unknown) => t.http().put(base + path).set(owner.auth).send(body as object);
    return { project, base, post, put };
  }
  const scheduler = (id: string) => queue.getJobScheduler(scheduleSchedulerId(id));

  it('creates, deploys (starting its job scheduler), disables and undeploys (stopping it) before the answer', async () => {
    const { project, base, post, put } = await setup();
    const body = { name: 'Nightly', cron: '0 9 * * *', timezone: 'Europe/Berlin', flow: respondFlow({ ran: '{schedule.name}' }) };
    const created = await post('', body).expect(201);
    expect(created.body).toMatchObject({ name: 'Nightly', cron: '0 9 * * *', timezone: 'Europe/Berlin', enabled: true, status: 'draft', next_runs: [], last_run: null, diagnostics: [] });
    const id = created.body.id as string;
    expect(await scheduler(id)).toBeUndefined();

    const deployed = await post(`/${id}/deploy`).expect(200);
    expect(deployed.body).toMatchObject({ status: 'live', live_version: 1, has_undeployed_changes: false });
    expect(deployed.body.next_runs).toHaveLength(5);
    // 09:00 in Berlin is 07:00 or 08:00 UTC, whatever the season.
    for (const run of deployed.body.next_runs as string[]) expect(new Date(run).getUTCHours()).toBeGreaterThanOrEqual(7);
    expect(await scheduler(id)).toMatchObject({ pattern: '0 9 * * *', tz: 'Europe/Berlin' });
    expect((await publishedProject(t.redis, project.id))?.schedules).toEqual([expect.objectContaining({ schedule_id: id, name: 'Nightly', version: 1 })]);

    const disabled = await put(`/${id}`, { ...body, enabled: false }).expect(200);
    expect(disabled.body).toMatchObject({ enabled: false, next_runs: [], has_undeployed_changes: false });
    expect(await scheduler(id)).toBeUndefined();
    await put(`/${id}`, { ...body, enabled: true }).expect(200);
    expect(await scheduler(id)).toBeDefined();

    // A new cron in the draft does not move the live clock until it is deployed.
    await put(`/${id}`, { ...body, cron: '@hourly' }).expect(200);
    expect(await scheduler(id)).toMatchObject({ pattern: '0 9 * * *' });
    await post(`/${id}/deploy`).expect(200);
    expect(await scheduler(id)).toMatchObject({ pattern: '@hourly' });
    const versions = await t.http().get(`${base}/${id}/versions`).set(owner.auth).expect(200);
    expect(versions.body.items.map((v: { version: number; cron: string }) => [v.version, v.cron])).toEqual([[2, '@hourly'], [1, '0 9 * * *']]);
    await post(`/${id}/versions/1/deploy`).expect(200);
    expect(await scheduler(id)).toMatchObject({ pattern: '0 9 * * *' });

    await post(`/${id}/undeploy`).expect(200);
    expect(await scheduler(id)).toBeUndefined();
    expect((await post(`/${id}/run`).expect(409)).body).toMatchObject({ code: 'conflict' });
    await post(`/${id}/deploy`).expect(200);
    const run = await post(`/${id}/run`).expect(202);
    expect(run.body).toMatchObject({ success: true, job_id: expect.any(String) });
    expect(await queue.getJob(run.body.job_id as string)).toMatchObject({ name: 'run_now', data: { project_id: project.id, schedule_id: id, kind: 'run_now' } });

    await t.http().delete(`${base}/${id}`).set(owner.auth).expect(200);
    expect(await scheduler(id)).toBeUndefined();
  });

  it.each([
    [{ cron: '*/10 * * * * *' }, 'cron', /five fields/],
    [{ cron: '99 * * * *' }, 'cron', /not a valid cron/],
    [{ cron: '* * * * *', timezone: 'Mars/Olympus' }, 'timezone', /not an IANA time zone/],
  ])('refuses %j with 400 naming %s', async (change, field, message) => {
    const { post } = await setup();
    const refused = await post('', { name: 'Bad', ...{ cron: '0 * * * *' }, ...change }).expect(400);
    expect(refused.body).toMatchObject({ code: 'invalid_request', details: [{ path: field, message: expect.stringMatching(message) }] });
  });

  it('refuses a request reference in the flow at Deploy, and a second schedule of the same name', async () => {
    const { post } = await setup();
    const created = await post('', { name: 'Sync', cron: '@daily', flow: respondFlow('{body.x}') }).expect(201);
    expect(created.body.diagnostics).toContainEqual(expect.objectContaining({ code: 'no_request_in_schedule' }));
    expect((await post(`/${created.body.id}/deploy`).expect(400)).body).toMatchObject({ code: 'invalid_flow' });
    expect((await post('', { name: 'Sync', cron: '@daily' }).expect(409)).body).toMatchObject({ code: 'conflict', details: [{ path: 'name' }] });
  });
});
