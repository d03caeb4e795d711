import { randomBytes } from 'node:crypto';
import { type AppProcess, readEvents, spawnApp, type StandIn, startStandIn, waitFor, waitForOutput } from '@flowgate/testing';
import { type TestAccount, type TestApp, startTestApp } from '../../apps/control-plane/src/testing/test-app';

jest.setTimeout(180_000);

const position = { x: 0, y: 0 };

/**
 * Schedules end to end: the real control plane (in this process) keeps the job schedulers, two
 * worker processes take the ticks, a stand-in HTTP server counts the runs (the flow calls it
 * with its tick), and the request-log events land on a topic of the test's own. Ticks come
 * every 1.5 s (SCHEDULE_TICK_EVERY_MS) so the test does not take minutes.
 */
describe('schedules run in the worker: one run per tick with two workers, logged as trigger schedule', () => {
  const prefix = `fgtest-sched-${randomBytes(4).toString('hex')}`;
  const topic = `flowgate.test.schedules.${randomBytes(6).toString('hex')}`;
  let t: TestApp;
  let owner: TestAccount;
  let workers: AppProcess[] = [];
  let counter: StandIn;
  const calls: string[] = [];

  beforeAll(async () => {
    t = await startTestApp((config) => ({ ...config, bullmqPrefix: prefix, scheduleTickEveryMs: 1500 }));
    owner = await t.signup();
    counter = await startStandIn((req, res) => {
      calls.push(new URL(req.url ?? '/', 'http://x').searchParams.get('tick') ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const env = { BULLMQ_PREFIX: prefix, KAFKA_LOG_TOPIC: topic, FLOWGATE_EGRESS_ALLOW_CIDRS: '127.0.0.0/8', WORKER_PORT: '0', LOG_LEVEL: 'info' };
    workers = [spawnApp('worker', env), spawnApp('worker', env)];
    await Promise.all(workers.map((worker) => waitForOutput(worker, /worker started/, 90_000)));
  }, 150_000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await counter?.close();
    await t?.close();
  });

  it('runs each tick once, calls the flow with {schedule.time}, and logs every run once; disable stops it', async () => {
    const project = await t.createProject(owner);
    const base = `/v1/projects/${project.id}/schedules`;
    const flow = {
      nodes: [
        { id: 'start', type: 'start', position },
        { id: 'ping', type: 'http_request', position, config: { name: 'ping', url: `${counter.url}/tick?tick={schedule.time}&name={schedule.name}` } },
        { id: 'done', type: 'respond', position, config: { body: { status: '{ping.status}' } } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'ping' },
        { id: 'e2', source: 'ping', target: 'done' },
      ],
    };
    const body = { name: 'Ping', cron: '* * * * *', flow };
    const created = await t.http().post(base).set(owner.auth).send(body).expect(201);
    await t.http().post(`${base}/${created.body.id}/deploy`).set(owner.auth).expect(200);
    // The wait guards against a hang; the counts below are what is asserted.
    await waitFor(() => calls.length >= 3, 'three ticks run', 60_000);
    await t.http().put(`${base}/${created.body.id}`).set(owner.auth).send({ ...body, enabled: false }).expect(200);
    const ran = [...calls];

    // One run per tick: no tick ran twice, whichever worker took it.
    expect(new Set(ran).size).toBe(ran.length);
    const events = await readEvents(topic, ran.length, 30_000);
    const runs = events.map(({ event }) => event).filter((event) => event.code !== 'skipped_overlap');
    expect(runs.map((event) => event.time).sort()).toEqual([...ran].sort());
    expect(new Set(runs.map((event) => event.id)).size).toBe(runs.length);
    for (const event of runs) expect(event).toMatchObject({ project_id: project.id, method: 'SCHEDULE', path: 'Ping', status: 200, trigger: 'schedule', environment: 'live' });

    const read = await t.http().get(`${base}/${created.body.id}`).set(owner.auth).expect(200);
    expect(read.body).toMatchObject({ enabled: false, next_runs: [], last_run: { status: 'ok' } });
    expect(ran).toContain(read.body.last_run.time);

    // Run now runs the live version once more, even while disabled.
    const before = calls.length;
    await t.http().post(`${base}/${created.body.id}/run`).set(owner.auth).expect(202);
    await waitFor(() => calls.length > before, 'Run now to run', 30_000);
  });
});
