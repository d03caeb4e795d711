import { CONFIG_SEQ_KEY, type PublishedProject, type PublishedRoute } from '@flowgate/contracts';
import { CommandLog, DEPLOYMENT_NODE_FLAGS, publishedRoute, respond, spawnGateway, TestPublisher, waitFor, type GatewayProcess } from '@flowgate/testing';
import { load } from '../gateway/load';
import { setTimeout as sleep } from 'node:timers/promises';
import { get, rssBytes } from '../gateway/processes';

/** Five live endpoints a project, each the stack bench's flow (set_variable → manipulate_text → respond). */
function routes(): PublishedRoute[] {
  return Array.from({ length: 5 }, (_, i) =>
    publishedRoute({
      path: `/shout-${i}`,
      query_params: [{ key: 'name', default: null }],
      blocks: [
        { type: 'set_variable', config: { name: 'word', value: 'hello {params.name}' } },
        { type: 'manipulate_text', config: { input: '{local.word}', operation: 'uppercase', ref: 'loud' } },
        respond({ result: '{result.loud}' }),
      ],
    }),
  );
}

/**
 * RSS once the gateway has been idle for SETTLE_MS: V8 grows the heap while the loads run (the
 * projects read and evicted are garbage until collected) and its memory reducer hands it back
 * within ~20 s of the allocation rate falling. Read earlier, RSS counts that garbage: 2 000
 * projects through a 16 MB cache read 240 MB right after the loads and 170 MB once settled, for
 * a live heap of 43 MB (perf/JOURNAL.md).
 */
const SETTLE_MS = 30_000;

async function settledRssMb(pid: number): Promise<number> {
  await sleep(SETTLE_MS);
  return rssBytes(pid) / 2 ** 20;
}

export interface GatewayFigures {
  /** Commands a gateway sent Redis for one deploy of a project it holds, besides its polling. */
  commandsPerDeploy: number;
  /** Project documents it read for that deploy. */
  documentsPerDeploy: number;
  quietP99Ms: number;
  deployingP99Ms: number;
  /** RSS after touching every project, settled, with GATEWAY_PROJECT_CACHE_MB = `smallBoundMb`. */
  rssBoundedMb: number;
  /** The same with the default bound (256 MB). */
  rssDefaultMb: number;
}

/** Projects published to a Redis of the bench's own, as the control plane publishes them. */
export class TenantFleet {
  readonly projects: PublishedProject[] = [];
  private readonly routes = routes();
  private revision = 1;

  /**
   * @param touches requests a gateway serves before it is measured, spread evenly over the
   * projects it holds: the same for a few projects as for all of them, so that the gap between
   * the two is what holding projects costs, not what serving more requests warms up (compiled
   * code, buffers).
   */
  constructor(
    private readonly publisher: TestPublisher,
    private readonly redisUrl: string,
    private readonly touches: number,
  ) {}

  async grow(count: number): Promise<void> {
    const fresh = Array.from({ length: count - this.projects.length }, () => this.publisher.newProject(this.routes));
    for (let start = 0; start < fresh.length; start += 100) await Promise.all(fresh.slice(start, start + 100).map((p) => this.publisher.publish(p)));
    this.projects.push(...fresh);
  }

  /** A gateway process as deployed (its Node flags) holding the first `held` projects, after `touches` requests over them. */
  async gateway(held: number, env: Record<string, string> = {}): Promise<GatewayProcess> {
    const gateway = await spawnGateway({ REDIS_URL: this.redisUrl, ...env }, DEPLOYMENT_NODE_FLAGS);
    const touches = Math.max(held, this.touches);
    for (let start = 0; start < touches; start += 50) {
      const targets = Array.from({ length: Math.min(50, touches - start) }, (_, i) => this.projects[(start + i) % held]!);
      await Promise.all(targets.map((p) => get(gateway.port, '/shout-0?name=x', { host: `${p.subdomain}.localhost` })));
    }
    return gateway;
  }

  /** Deploys a new revision of the first project (announced), and resolves when `gateway` serves it. */
  async deploy(gateway: GatewayProcess): Promise<void> {
    const project = this.projects[0]!;
    this.revision++;
    const first = this.routes[0]!;
    const deployed = publishedRoute({ path: first.path, endpoint_id: first.endpoint_id, version: this.revision, blocks: [respond({ revision: this.revision })] });
    await this.publisher.publish({ ...project, revision: this.revision, routes: [deployed, ...this.routes.slice(1)] });
    const expected = JSON.stringify({ revision: this.revision });
    await waitFor(async () => (await get(gateway.port, '/shout-0', { host: `${project.subdomain}.localhost` })).body === expected, 'the deploy served');
  }

  /**
   * What one gateway holding the first `held` projects pays: Redis commands for a deploy, an
   * unrelated project's p99 quiet and while the first project deploys twice a second, RSS.
   */
  async measure(held: number, smallBoundMb: number): Promise<GatewayFigures> {
    const gateway = await this.gateway(held);
    const log = await CommandLog.start(this.redisUrl);
    try {
      const mark = log.mark;
      await this.deploy(gateway);
      await log.polledSince(mark, 3);
      const reads = log.readsSince(mark);
      const polls = reads.filter((key) => key === CONFIG_SEQ_KEY).length;
      // A poll is two GETs (fg:config-seq, fg:epoch); the publisher's own commands are no GETs.
      const commandsPerDeploy = reads.length - 2 * polls;
      const documentsPerDeploy = reads.filter((key) => key.startsWith('fg:project:')).length;
      log.close();

      const unrelated = `${gateway.url}/shout-1?name=x`;
      const headers = { host: `${this.projects[held - 1]!.subdomain}.localhost` };
      const quiet = await load(unrelated, { connections: 8, seconds: 5, headers, rate: 400 });
      let deploying = true;
      const deploys = (async () => {
        while (deploying) await Promise.all([this.deploy(gateway), new Promise((resolve) => setTimeout(resolve, 500))]);
      })();
      const busy = await load(unrelated, { connections: 8, seconds: 8, headers, rate: 400 });
      deploying = false;
      await deploys;
      const rssDefaultMb = await settledRssMb(gateway.child.pid!);
      return {
        commandsPerDeploy,
        documentsPerDeploy,
        quietP99Ms: quiet.p99Ms,
        deployingP99Ms: busy.p99Ms,
        rssDefaultMb,
        rssBoundedMb: await this.boundedRss(held, smallBoundMb),
      };
    } finally {
      log.close();
      await gateway.stop();
    }
  }

  private async boundedRss(held: number, boundMb: number): Promise<number> {
    const gateway = await this.gateway(held, { GATEWAY_PROJECT_CACHE_MB: String(boundMb) });
    try {
      return await settledRssMb(gateway.child.pid!);
    } finally {
      await gateway.stop();
    }
  }
}
