/**
 * The test-run part of the noisy-neighbour drill: one account sends Workshop test runs of the
 * abusive flows (a regex huge to run, values adding up to hundreds of MB, a regex
 * holding the heavy-work pool) as fast as its test-run limit lets it, while another account's
 * `GET /v1/projects` is probed one request at a time. A control plane of the compiled build,
 * on ports and a database of its own (created, migrated and dropped here: the drill needs no
 * `npm run db:migrate` first).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { type Block, linearFlow, respond } from '@flowgate/testing';
import { type AppProcess, createThrowawayDatabase, freePort, startProcess, waitReady } from '@flowgate/testing';
import { migrate } from '@flowgate/db';
import { heapHighWater, sequentialProbe, type SequentialResult } from './sequential-probe';
import { setTimeout as sleep } from 'node:timers/promises';

export interface TestRunAbuseResult {
  quiet: SequentialResult;
  noisy: SequentialResult;
  heapHighWaterMb: number;
  crashed: boolean;
  /** `status code` of every test run the noisy account sent. */
  answers: Record<string, number>;
}

const setVariable = (name: string, value: string): Block => ({ type: 'set_variable', config: { name, value } });
const caseChange = (index: number, ref: string): Block => ({ type: 'manipulate_text', config: { input: '{local.v}', operation: index % 2 === 0 ? 'uppercase' : 'lowercase', ref } });

/** The abusive flows a test run can carry (the endpoint's saved draft does not matter). */
const ABUSES: Array<{ name: string; blocks: Block[]; body: unknown }> = [
  {
    name: 'memory',
    blocks: [setVariable('v', 'abcdefghijklmnop'), ...Array.from({ length: 16 }, () => setVariable('v', '{local.v}{local.v}')), ...Array.from({ length: 470 }, (_, i) => caseChange(i, `r${i}`)), respond({ done: true })],
    body: {},
  },
  {
    name: 'regex',
    blocks: [{ type: 'match_regex', config: { input: '{body.t}', pattern: '{body.p}', flags: 's', ref: 'm' } }, respond({ m: '{result.m.isMatch}' })],
    body: { p: '((.)|b){0,300}z', t: `${'a'.repeat(4094)}z` },
  },
  {
    name: 'hog',
    blocks: [{ type: 'match_regex', config: { input: '{body.t}', pattern: '.{0,1000}z', flags: 's', ref: 'm' } }, respond({ m: '{result.m.isMatch}' })],
    body: { t: `${'a'.repeat(59_999)}z` },
  },
];

async function api(base: string, method: string, route: string, token: string | null, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${base}/v1${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function account(base: string, name: string): Promise<{ token: string; projectId: string }> {
  const email = `noisy-drill-${name}-${randomBytes(4).toString('hex')}@flowgate.invalid`;
  const signup = await api(base, 'POST', '/auth/signup', null, { email, password: 'noisy drill: tangerine lighthouse 42 orbit' });
  if (signup.status !== 201) throw new Error(`sign-up answered ${signup.status} ${JSON.stringify(signup.json)}`);
  const token = signup.json.token as string;
  const project = await api(base, 'POST', '/projects', token, { name: `Noisy drill ${name}`, subdomain: `drill-${name}-${randomBytes(4).toString('hex')}` });
  if (project.status !== 201) throw new Error(`create project answered ${project.status} ${JSON.stringify(project.json)}`);
  return { token, projectId: project.json.id as string };
}

export async function testRunAbuse(root: string, env: NodeJS.ProcessEnv, nodeFlags: string[], seconds: number): Promise<TestRunAbuseResult> {
  const port = await freePort();
  const database = await createThrowawayDatabase('flowgate_noisy_drill', env.DATABASE_URL);
  await migrate(database.url, { quiet: true });
  const controlPlane: AppProcess = startProcess(
    'control-plane',
    [...nodeFlags, path.join(root, 'dist/apps/control-plane/src/main.js')],
    { ...env, DATABASE_URL: database.url, CONTROL_PLANE_PORT: String(port), CONTROL_PLANE_INTERNAL_PORT: String(await freePort()), LOG_LEVEL: 'warn', SIGNUP_PER_ADDRESS_PER_HOUR: '1000' },
    root,
  );
  try {
    await waitReady(controlPlane, `http://127.0.0.1:${port}/readyz`);
    const base = `http://127.0.0.1:${port}`;
    const noisy = await account(base, 'noisy');
    const quiet = await account(base, 'quiet');
    const endpoint = await api(base, 'POST', `/projects/${noisy.projectId}/endpoints`, noisy.token, { name: 'Abuse', method: 'POST', path: '/abuse', auth: 'none', query_params: [], flow: linearFlow([respond({})]) });
    if (endpoint.status !== 201) throw new Error(`create endpoint answered ${endpoint.status} ${JSON.stringify(endpoint.json)}`);
    const probeTarget = { port, path: '/v1/projects', headers: { authorization: `Bearer ${quiet.token}` } };
    const quietRun = await sequentialProbe(probeTarget, seconds);

    const answers: Record<string, number> = {};
    let stopping = false;
    const loop = async (index: number): Promise<void> => {
      const abuse = ABUSES[index % ABUSES.length];
      while (!stopping) {
        const answer = await api(base, 'POST', `/projects/${noisy.projectId}/endpoints/${endpoint.json.id as string}/test-runs`, noisy.token, {
          flow: linearFlow(abuse.blocks),
          request: { body: abuse.body },
        }).catch((error: unknown) => ({ status: 0, json: { code: String(error) } as Record<string, unknown> }));
        const result = answer.json.response as { status?: number; body?: { code?: string } } | undefined;
        const outcome = `${abuse.name} ${answer.status} ${(answer.json.code as string | undefined) ?? `${result?.status ?? ''} ${result?.body?.code ?? ''}`.trim()}`;
        answers[outcome] = (answers[outcome] ?? 0) + 1;
        if (answer.status === 429) await sleep(200);
      }
    };
    // 12 runs at once: the count that once crashed a shared control plane.
    const heap = heapHighWater(port, '/metrics', 'nodejs_heap_size_used_bytes');
    const loops = Array.from({ length: 12 }, (_, index) => loop(index));
    const noisyRun = await sequentialProbe(probeTarget, seconds);
    stopping = true;
    await Promise.all(loops);
    return { quiet: quietRun, noisy: noisyRun, heapHighWaterMb: heap.stop(), crashed: controlPlane.child.exitCode !== null || controlPlane.child.signalCode !== null, answers };
  } finally {
    await controlPlane.stop();
    await database.drop();
  }
}
