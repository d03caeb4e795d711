import { bullmqPrefix, createRedisClient, type Logger, type RedisClient, type RedisTarget } from '@flowgate/platform';
import type { HttpPort } from '@flowgate/flow-engine';
import type { Queue } from 'bullmq';
import type { GuardedFetch } from '../egress/guarded-fetch';
import type { InlineCode } from '../code-sandbox/inline-code-sandbox';
import type { HeavyWorkPool } from '../heavy-work/heavy-work-pool';
import type { ImageStore } from '../images/image-store';
import type { IntegrationsConfig } from '../integrations.config';

/** What the process that runs flows tells the port factory (the gateway's or the control plane's configuration). */
export interface FlowPortsSettings {
  /** A project's public base URL with `{subdomain}` (URLs of manipulated images). */
  publicUrlTemplate: string;
  /** Where the email queue lives (BullMQ's prefix is a hash tag on a cluster). */
  redisTarget: RedisTarget;
  /** FLOW_WORKER_THREADS, FLOW_WORKER_QUEUE and FLOW_WORKER_TASK_MS: the pool for image pixels and long regular expressions. */
  workerThreads: number;
  workerQueue: number;
  workerTaskMs: number;
  /** CODE_MEMORY_MB: what one Run Code execution may allocate. */
  codeMemoryMb: number;
}

export interface LoadedIntegrations {
  config: IntegrationsConfig;
  fetch: GuardedFetch;
  http: HttpPort;
  images: ImageStore;
}

/** What every project's ports share: configuration, the egress guard, the image store, the email queue. */
export interface SharedIntegrations {
  /** Loads the adapters on first call. */
  loaded(): LoadedIntegrations;
  /** Worker threads for image filters, long regular expressions and Run Code, started on first use. */
  heavyWork(): HeavyWorkPool;
  /** Run Code's sandbox on this thread (short code), loaded on first use. */
  inlineCode(): InlineCode;
  emailQueue(): Queue;
  close(): Promise<void>;
}

type IntegrationsModule = typeof import('../index');
let integrationsModule: IntegrationsModule | undefined;

/**
 * `@flowgate/integrations` (jimp, the Anthropic SDK, BullMQ, SendGrid: about 50 MB of RSS),
 * required on first use, so a gateway whose projects never run those blocks does not load it.
 * The egress guard and the HTTP port (`loaded()`) are required apart from it.
 */
export function loadIntegrations(): IntegrationsModule {
  return (integrationsModule ??= require('../index') as IntegrationsModule);
}

type ImageServing = typeof import('../images/image-store') & typeof import('../images/image-request.handler');
let imageServing: ImageServing | undefined;

/** What `GET /_images/<id>.png` needs: the store and the handler, without jimp (required on the first image request). */
export function loadImageServing(): ImageServing {
  return (imageServing ??= {
    ...(require('../images/image-store') as typeof import('../images/image-store')),
    ...(require('../images/image-request.handler') as typeof import('../images/image-request.handler')),
  });
}

/** Prefixes of the variables `loadIntegrationsConfig` reads (see ../integrations.config.ts). */
const INTEGRATION_VARIABLES = /^(FLOWGATE_EGRESS_|FLOWGATE_IMAGE_|FLOWGATE_SENDGRID_|ANTHROPIC_|EMAIL_QUEUE_|BULLMQ_)/;

export function createSharedIntegrations(
  deps: { settings: FlowPortsSettings; redis: RedisClient; logger: Logger },
  env: NodeJS.ProcessEnv = { ...process.env },
): SharedIntegrations {
  let loaded: LoadedIntegrations | null = null;
  const load = () => {
    if (loaded === null) {
      // The modules of the HTTP Request block alone: its first run must not load jimp, the
      // Anthropic SDK and BullMQ too (~0.5 s of event loop, measured, for every project's requests).
      const { loadIntegrationsConfig } = require('../integrations.config') as typeof import('../integrations.config');
      const { createEgressFetch, createHttpPort } = require('../egress/http-port') as typeof import('../egress/http-port');
      const { RedisImageStore } = require('../images/image-store') as typeof import('../images/image-store');
      const config = loadIntegrationsConfig(env);
      const fetch = createEgressFetch(config.egress);
      loaded = { config, fetch, http: createHttpPort({ fetch }), images: new RedisImageStore(deps.redis) };
    }
    return loaded;
  };
  // Validated at boot: a bad FLOWGATE_EGRESS_* / FLOWGATE_IMAGE_* value stops the process with one line.
  if (Object.keys(env).some((name) => INTEGRATION_VARIABLES.test(name))) load();
  let queue: Queue | null = null;
  let queueConnection: RedisClient | null = null;
  let pool: HeavyWorkPool | null = null;
  let inlineCode: InlineCode | null = null;
  return {
    loaded: load,
    heavyWork: () =>
      (pool ??= (require('../heavy-work/heavy-work-pool') as typeof import('../heavy-work/heavy-work-pool')).createHeavyWorkPool({
        threads: deps.settings.workerThreads,
        maxQueue: deps.settings.workerQueue,
        taskMs: deps.settings.workerTaskMs,
        codeMemoryMb: deps.settings.codeMemoryMb,
      })),
    inlineCode: () =>
      (inlineCode ??= (require('../code-sandbox/inline-code-sandbox') as typeof import('../code-sandbox/inline-code-sandbox')).createInlineCode(deps.settings.codeMemoryMb)),
    emailQueue() {
      // Opened on the first project with an email integration: one connection per process.
      if (!queue) {
        const { Queue: BullQueue } = require('bullmq') as typeof import('bullmq');
        // In cluster mode the prefix is a hash tag ({bull}): BullMQ's scripts touch one slot.
        const target = deps.settings.redisTarget;
        queueConnection = createRedisClient(target, { node: { maxRetriesPerRequest: null } });
        queue = new BullQueue((require('../email/email-job') as typeof import('../email/email-job')).EMAIL_QUEUE_NAME, {
          connection: queueConnection,
          prefix: bullmqPrefix(load().config.bullmqPrefix, target),
        });
        queue.on('error', (error) => deps.logger.warn({ err: error }, 'email queue connection error'));
      }
      return queue;
    },
    close: async () => {
      await queue?.close();
      await queueConnection?.quit().catch(() => queueConnection?.disconnect());
      await pool?.close();
    },
  };
}
