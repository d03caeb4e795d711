import type { PublishedProject, PublishedRoute } from '@flowgate/contracts';
import { type Block, publishedRoute, respond, type StandIn, startStandIn, TestPublisher } from '@flowgate/testing';
import { Redis } from 'ioredis';

/** Two projects published to Redis for the isolation tests: a noisy one and a quiet one beside it. */
export interface NoisyNeighbours {
  readonly noisy: PublishedProject;
  readonly quiet: PublishedProject;
  /**
   * Resolves once the noisy flows' `startedBlock` has run `count` more times: the test knows a
   * heavy flow is running. Ask before making the requests.
   */
  whenStarted(count?: number): Promise<void>;
  /** Unpublishes both projects, closes the stand-in and restores the egress setting. */
  close(): Promise<void>;
}

export interface NoisyNeighboursSpec {
  /**
   * The noisy project's routes. Given as a function, they get a first block that tells the test
   * the flow is running (an HTTP request to a stand-in on 127.0.0.1, which egress is then allowed to reach).
   */
  noisy: PublishedRoute[] | ((startedBlock: Block) => PublishedRoute[]);
  /** The quiet project's routes; by default `GET /ping` answering `{ pong: true }`. */
  quiet?: PublishedRoute[];
}

/** Publishes a noisy and a quiet project (unique subdomains) for a gateway to serve. */
export async function startNoisyNeighbours(spec: NoisyNeighboursSpec): Promise<NoisyNeighbours> {
  let waiting: { remaining: number; resolve: () => void } | undefined;
  let started: StandIn | undefined;
  const savedEgress = process.env.FLOWGATE_EGRESS_ALLOW_CIDRS;
  let noisyRoutes: PublishedRoute[];
  if (typeof spec.noisy === 'function') {
    started = await startStandIn((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      if (waiting && --waiting.remaining === 0) {
        waiting.resolve();
        waiting = undefined;
      }
    });
    process.env.FLOWGATE_EGRESS_ALLOW_CIDRS = '127.0.0.0/8';
    noisyRoutes = spec.noisy({ type: 'http_request', config: { name: 'started', url: `${started.url}/started` } });
  } else noisyRoutes = spec.noisy;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const publisher = new TestPublisher(redis);
  const noisy = publisher.newProject(noisyRoutes);
  const quiet = publisher.newProject(spec.quiet ?? [publishedRoute({ path: '/ping', blocks: [respond({ pong: true })] })]);
  await publisher.publish(noisy);
  await publisher.publish(quiet);
  return {
    noisy,
    quiet,
    whenStarted: (count = 1) => new Promise<void>((resolve) => (waiting = { remaining: count, resolve })),
    async close() {
      await publisher.cleanup();
      redis.disconnect();
      if (started) {
        await started.close();
        if (savedEgress === undefined) delete process.env.FLOWGATE_EGRESS_ALLOW_CIDRS;
        else process.env.FLOWGATE_EGRESS_ALLOW_CIDRS = savedEgress;
      }
    },
  };
}
