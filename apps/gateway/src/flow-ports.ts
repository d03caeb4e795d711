/**
 * Builds the engine's side-effect ports for one project.
 *
 * SHARED FILE: the gateway work created it; the integrations work fills it in (HTTP egress,
 * images, Anthropic text generation, email enqueue) and owns its contents. The gateway calls
 * `createFlowPortsContext` once at start-up (shared clients, closed at shutdown) and
 * `buildFlowPorts` once per project configuration load — never per request.
 *
 * The adapters (`@flowgate/integrations`: jimp, the Anthropic SDK, BullMQ, SendGrid, ~50 MB of
 * RSS) are loaded on first use: when a project with a text-generation or email integration is
 * loaded, or when an HTTP Request / Manipulate Image block first runs, or an image is served.
 * Their configuration is still validated at boot whenever one of its variables is set (with
 * none set it is all defaults, valid by construction).
 */
import type { PublishedProject } from '@flowgate/contracts';
import { IntegrationError, type EmailPort, type FlowPorts, type HttpPort, type ImagePort, type TextGenerationPort } from '@flowgate/flow-engine';
import type { GuardedFetch, HeavyWorkPool, ImageStore, IntegrationsConfig } from '@flowgate/integrations';
import { bullmqPrefix, createRedisClient, type Logger, type RedisClient, type RedisTarget, type SecretBox } from '@flowgate/platform';
import type { Queue } from 'bullmq';
import type { GatewayConfig } from './config';

export interface FlowPortsDeps {
  config: GatewayConfig;
  /** The gateway's command connection (images are stored under `fg:image:<id>`). */
  redis: RedisClient;
  /** Decrypts `api_key_encrypted` of the published integrations. */
  secrets: SecretBox;
  logger: Logger;
  /** Set by `createFlowPortsContext`; built on first use when absent. */
  integrations?: SharedIntegrations;
}

export interface FlowPortsContext {
  deps: FlowPortsDeps;
  close(): Promise<void>;
}

interface LoadedIntegrations {
  config: IntegrationsConfig;
  fetch: GuardedFetch;
  http: HttpPort;
  images: ImageStore;
}

/** What every project's ports share: configuration, the egress guard, the image store, the email queue. */
interface SharedIntegrations {
  /** Loads the adapters on first call. */
  loaded(): LoadedIntegrations;
  /** Worker threads for image filters and long regular expressions, started on first use. */
  heavyWork(): HeavyWorkPool;
  emailQueue(): Queue;
  close(): Promise<void>;
}

type IntegrationsModule = typeof import('./integrations-module');
let integrationsModule: IntegrationsModule | undefined;

/** `@flowgate/integrations`, required on first use. */
export function loadIntegrations(): IntegrationsModule {
  return (integrationsModule ??= require('./integrations-module') as IntegrationsModule);
}

/** Prefixes of the variables `loadIntegrationsConfig` reads (see libs/integrations/src/integrations.config.ts). */
const INTEGRATION_VARIABLES = /^(FLOWGATE_EGRESS_|FLOWGATE_IMAGE_|FLOWGATE_SENDGRID_|ANTHROPIC_|EMAIL_QUEUE_|BULLMQ_)/;

function createSharedIntegrations(deps: FlowPortsDeps, env: NodeJS.ProcessEnv = { ...process.env }): SharedIntegrations {
  let loaded: LoadedIntegrations | null = null;
  const load = () => {
    if (loaded === null) {
      const integrations = loadIntegrations();
      const config = integrations.loadIntegrationsConfig(env);
      const fetch = integrations.createEgressFetch(config.egress);
      loaded = { config, fetch, http: integrations.createHttpPort({ fetch }), images: new integrations.RedisImageStore(deps.redis) };
    }
    return loaded;
  };
  // Validated at boot: a bad FLOWGATE_EGRESS_* / FLOWGATE_IMAGE_* value stops the gateway with one line.
  if (Object.keys(env).some((name) => INTEGRATION_VARIABLES.test(name))) load();
  let queue: Queue | null = null;
  let queueConnection: RedisClient | null = null;
  let pool: HeavyWorkPool | null = null;
  return {
    loaded: load,
    heavyWork: () =>
      (pool ??= loadIntegrations().createHeavyWorkPool({ threads: deps.config.FLOW_WORKER_THREADS, maxQueue: deps.config.FLOW_WORKER_QUEUE })),
    emailQueue() {
      // Opened on the first project with an email integration: one connection per gateway.
      if (!queue) {
        const { Queue: BullQueue } = require('bullmq') as typeof import('bullmq');
        // In cluster mode the prefix is a hash tag ({bull}): BullMQ's scripts touch one slot.
        const target: RedisTarget = { url: deps.config.REDIS_URL, clusterNodes: deps.config.REDIS_CLUSTER_NODES };
        queueConnection = createRedisClient(target, { node: { maxRetriesPerRequest: null } });
        queue = new BullQueue(loadIntegrations().EMAIL_QUEUE_NAME, {
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

/** Resources shared by every project's ports, created once per gateway process. */
export function createFlowPortsContext(deps: FlowPortsDeps): FlowPortsContext {
  const integrations = createSharedIntegrations(deps);
  return { deps: { ...deps, integrations }, close: () => integrations.close() };
}

/**
 * The ports of one project: outbound HTTP and images always (behind the egress guard), long
 * regular expressions and image pixels in the shared worker pool (heavy-work-pool.ts), text
 * generation and email only when the project configured them — a missing port makes the
 * engine skip the block. A secret that cannot be decrypted gives a port that fails the
 * block with a clear message instead of silently skipping it.
 */
export function buildFlowPorts(project: PublishedProject, deps: FlowPortsDeps): FlowPorts {
  const shared = (deps.integrations ??= createSharedIntegrations(deps));
  const publicBaseUrl = deps.config.GATEWAY_PUBLIC_URL.replace('{subdomain}', project.subdomain);
  let images: ImagePort | undefined;
  const ports: FlowPorts = {
    // Both always present; the adapters behind them load when such a block first runs.
    http: { request: (request, signal) => shared.loaded().http.request(request, signal) },
    images: {
      manipulate: (request, signal) => {
        if (images === undefined) {
          const { config, fetch, images: store } = shared.loaded();
          images = loadIntegrations().createImagePort({
            store,
            publicBaseUrl,
            fetch,
            ttlSeconds: config.images.ttlSeconds,
            maxBytes: config.images.maxBytes,
            maxPixels: config.images.maxPixels,
            filter: (task, signal) => shared.heavyWork().filterImage(task, signal),
          });
        }
        return images.manipulate(request, signal);
      },
    },
    regex: { match: (task, signal) => shared.heavyWork().regex.match(task, signal) },
  };

  const text = project.integrations.text_generation;
  if (text) {
    const apiKey = decrypt(deps, project, 'text_generation', text.api_key_encrypted);
    ports.textGeneration =
      apiKey === null
        ? unusableTextGeneration()
        : loadIntegrations().createAnthropicPort({ apiKey, baseURL: shared.loaded().config.anthropicBaseUrl, defaultModel: text.default_model });
  }

  const email = project.integrations.email;
  if (email) {
    ports.email =
      decrypt(deps, project, 'email', email.api_key_encrypted) === null
        ? unusableEmail(email.verified_domains)
        : loadIntegrations().createEmailPort({
            queue: shared.emailQueue(),
            projectId: project.id,
            verifiedDomains: email.verified_domains,
            apiKeyEncrypted: email.api_key_encrypted,
            attempts: shared.loaded().config.emailQueueAttempts,
          });
  }
  return ports;
}

function decrypt(deps: FlowPortsDeps, project: PublishedProject, kind: string, sealed: string): string | null {
  try {
    return deps.secrets.decrypt(sealed);
  } catch {
    deps.logger.error({ project_id: project.id, integration: kind }, 'integration secret cannot be decrypted (FLOWGATE_ENCRYPTION_KEY differs from the control plane?)');
    return null;
  }
}

const UNDECRYPTABLE = 'the integration key cannot be decrypted by this gateway; re-save the integration or check FLOWGATE_ENCRYPTION_KEY';

function unusableTextGeneration(): TextGenerationPort {
  return {
    generate: async () => {
      throw new IntegrationError('anthropic', UNDECRYPTABLE);
    },
  };
}

function unusableEmail(verifiedDomains: string[]): EmailPort {
  return {
    verifiedDomains,
    enqueue: async () => {
      throw new IntegrationError('sendgrid', UNDECRYPTABLE);
    },
  };
}
