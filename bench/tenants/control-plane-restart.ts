import { freePort, spawnApp, waitReady, type AppProcess } from '@flowgate/testing';
import { processCpuSeconds } from '../stack/cpu';

/** The flow of every endpoint: set_variable → respond. */
const FLOW = {
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'n1', type: 'set_variable', position: { x: 240, y: 0 }, config: { name: 'word', value: 'hello {params.name}' } },
    { id: 'n2', type: 'respond', position: { x: 480, y: 0 }, config: { status: 200, body: { result: '{local.word}' } } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'n1' },
    { id: 'e2', source: 'n1', target: 'n2' },
  ],
};

async function api<T>(base: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${base}/v1${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/**
 * A control plane on a database and a Redis of the bench's own, its projects made through its
 * API (each with one deployed endpoint), restarted to time how soon it answers `/readyz`.
 */
export class ControlPlaneFleet {
  private app: AppProcess | null = null;
  private token = '';
  projects = 0;
  /** The first project made. */
  firstProjectId = '';

  private constructor(private readonly env: Record<string, string>, private readonly url: string) {}

  static async start(databaseUrl: string, redisUrl: string): Promise<ControlPlaneFleet> {
    const port = await freePort();
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      CONTROL_PLANE_PORT: String(port),
      CONTROL_PLANE_INTERNAL_PORT: String(await freePort()),
      SIGNUP_PER_ADDRESS_PER_HOUR: '1000',
      DEPLOYS_PER_MINUTE: '1000000',
      SAVES_PER_MINUTE: '1000000',
    };
    const fleet = new ControlPlaneFleet(env, `http://127.0.0.1:${port}`);
    await fleet.restart();
    const account = { email: `tenants-${Date.now()}@flowgate.invalid`, password: 'tenants bench: copper kite 19 harbour' };
    fleet.token = (await api<{ token: string }>(fleet.url, '/auth/signup', { method: 'POST', body: account })).token;
    return fleet;
  }

  /** Makes projects until there are `count`, `concurrency` at a time. */
  async grow(count: number, concurrency = 6): Promise<void> {
    const worker = async () => {
      while (this.projects < count) {
        const n = this.projects++;
        const project = await api<{ id: string }>(this.url, '/projects', { method: 'POST', token: this.token, body: { name: `Tenant ${n}`, subdomain: `tenant-${Date.now().toString(36)}-${n}` } });
        if (n === 0) this.firstProjectId = project.id;
        const endpoint = await api<{ id: string }>(this.url, `/projects/${project.id}/endpoints`, {
          method: 'POST',
          token: this.token,
          body: { name: 'hello', method: 'GET', path: '/hello', auth: 'none', query_params: [{ key: 'name', default: null }], flow: FLOW },
        });
        await api(this.url, `/projects/${project.id}/endpoints/${endpoint.id}/deploy`, { method: 'POST', token: this.token });
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }

  /**
   * Stops the control plane and starts it again: the ms from spawn to `/readyz` answering 200,
   * and the CPU seconds the process used by then (less sensitive to a busy machine).
   */
  async restart(): Promise<{ ms: number; cpuSeconds: number }> {
    await this.app?.stop();
    const started = performance.now();
    this.app = spawnApp('control-plane', this.env);
    await waitReady(this.app, `${this.url}/readyz`, 300_000);
    return { ms: performance.now() - started, cpuSeconds: processCpuSeconds(this.app.child.pid!) };
  }

  /** p99 (ms) of `calls` GET …/logs of the first project: the newest page, and a status filter every other call. */
  async logsP99(calls: number): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < calls + 10; i++) {
      const query = i % 2 === 0 ? 'limit=50' : `status=${[404, 500, 200][i % 3]}&limit=50`;
      const started = performance.now();
      await api(this.url, `/projects/${this.firstProjectId}/logs?${query}`, { token: this.token });
      if (i >= 10) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return times[Math.ceil(0.99 * times.length) - 1]!;
  }

  async stop(): Promise<void> {
    await this.app?.stop();
  }
}
