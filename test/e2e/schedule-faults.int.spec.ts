import { randomBytes } from 'node:crypto';
import { type AppProcess, readEvents, spawnApp, type StandIn, startStandIn, waitFor, waitForOutput } from '@flowgate/testing';
import { type TestAccount, type TestApp, startTestApp } from '../../apps/control-plane/src/testing/test-app';

jest.setTimeout(240_000);

const position = { x: 0, y: 0 };

/**
 * A run longer than the time between ticks (a stand-in that answers after 4 s, ticks every
 * 1.5 s): the ticks that find it going are logged `skipped_overlap` and never run beside it.
 * Then its worker is killed with SIGKILL mid-run: another worker runs the same tick again
 * (nothing is lost) and its log event keeps the tick's id (log-ingest stores one row).
 */
describe('schedules under faults: overlap skipped, a worker killed mid-run', () => {
  const prefix = `fgtest-schedf-${randomBytes(4).toString('hex')}`;
  const topic = `flowgate.test.schedules.${randomBytes(6).toString('hex')}`;
  const env = { BULLMQ_PREFIX: prefix, KAFKA_LOG_TOPIC: topic, FLOWGATE_EGRESS_ALLOW_CIDRS: '127.0.0.0/8', WORKER_PORT: '0', LOG_LEVEL: 'info', SCHEDULE_LOCK_MS: '2000' };
  let t: TestApp;
  let owner: TestAccount;
  const workers: AppProcess[] = [];
  let slow: StandIn;
  const started: string[] = [];
  let going = 0;
  let mostAtOnce = 0;

  const startWorker = async () => {
    const worker = spawnApp('worker', env);
    workers.push(worker);
    await waitForOutput(worker, /worker started/, 90_000);
    return worker;
  };

  beforeAll(async () => {
    t = await startTestApp((config) => ({ ...config, bullmqPrefix: prefix, scheduleTickEveryMs: 1500 }));
    owner = await t.signup();
    slow = await startStandIn((req, res) => {
      started.push(new URL(req.url ?? '/', 'http://x').searchParams.get('tick') ?? '');
      mostAtOnce = Math.max(mostAtOnce, ++going);
      // A run is going until its answer is sent or its worker's connection is gone (a killed
      // worker's run is over, though this timer still runs).
      res.once('close', () => going--);
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }, 4000);
    });
  }, 150_000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop().catch(() => undefined)));
    await slow?.close();
    await t?.close();
  });

  it('skips overlapping ticks and logs them; a tick whose worker was killed runs again and keeps one event id', async () => {
    const victim = await startWorker();
    const project = await t.createProject(owner);
    const base = `/v1/projects/${project.id}/schedules`;
    const flow = {
      nodes: [
        { id: 'start', type: 'start', position },
        { id: 'slow', type: 'http_request', position, config: { name: 'slow', url: `${slow.url}/run?tick={schedule.time}` } },
      ],
      edges: [{ id: 'e1', source: 'start', target: 'slow' }],
    };
    const body = { name: 'Slow', cron: '* * * * *', flow };
    const created = await t.http().post(base).set(owner.auth).send(body).expect(201);
    await t.http().post(`${base}/${created.body.id}/deploy`).set(owner.auth).expect(200);

    // The first run starts; its worker dies in the middle of it.
    await waitFor(() => started.length >= 1, 'the first run to start', 60_000);
    const killedTick = started[0]!;
    victim.child.kill('SIGKILL');
    await startWorker();
    // Another worker takes the stalled job up and runs the same tick again.
    await waitFor(() => started.filter((tick) => tick === killedTick).length >= 2, 'the killed tick to run again', 90_000);
    await waitFor(() => started.length >= 3, 'two more runs', 90_000);
    await t.http().put(`${base}/${created.body.id}`).set(owner.auth).send({ ...body, enabled: false }).expect(200);
    await waitFor(() => going === 0, 'the last run to end', 30_000);

    expect(mostAtOnce).toBe(1);
    const events = (await readEvents(topic, started.length, 60_000)).map(({ event }) => event);
    const skipped = events.filter((event) => event.code === 'skipped_overlap');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped[0]).toMatchObject({ trigger: 'schedule', method: 'SCHEDULE', path: 'Slow', status: 409 });
    const ofKilledTick = events.filter((event) => event.time === killedTick && event.code !== 'skipped_overlap');
    expect(ofKilledTick.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ofKilledTick.map((event) => event.id)).size).toBe(1);
  });
});
