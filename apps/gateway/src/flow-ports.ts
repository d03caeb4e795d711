/**
 * Builds the engine's side-effect ports for one project.
 *
 * SHARED FILE: the gateway work created it; the integrations work fills it in (HTTP egress,
 * images, Anthropic text generation, email enqueue) and owns its contents. The gateway calls
 * `createFlowPortsContext` once at start-up (shared clients, closed at shutdown) and
 * `buildFlowPorts` once per project configuration load — never per request.
 */
import type { PublishedProject } from '@flowgate/contracts';
import { IntegrationError, type EmailPort, type FlowPorts, type HttpPort, type TextGenerationPort } from '@flowgate/flow-engine';
import {
  createAnthropicPort,
  createEgressFetch,
  createEmailPort,
  createHttpPort,
  createImagePort,
  EMAIL_QUEUE_NAME,
  loadIntegrationsConfig,
  RedisImageStore,
  type GuardedFetch,
  type ImageStore,
  type IntegrationsConfig,
} from '@flowgate/integrations';
import type { Logger, SecretBox } from '@flowgate/platform';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { GatewayConfig } from './config';

export interface FlowPortsDeps {
  config: GatewayConfig;
  /** The gateway's command connection (images are stored under `fg:image:<id>`). */
  redis: Redis;
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

/** What every project's ports share: configuration, the egress guard, the image store, the email queue. */
interface SharedIntegrations {
  config: IntegrationsConfig;
  fetch: GuardedFetch;
  http: HttpPort;
  images: ImageStore;
  emailQueue(): Queue;
  close(): Promise<void>;
}

function createSharedIntegrations(deps: FlowPortsDeps): SharedIntegrations {
  // Validated at boot: a bad FLOWGATE_EGRESS_* / FLOWGATE_IMAGE_* value stops the gateway with one line.
  const config = loadIntegrationsConfig();
  const fetch = createEgressFetch(config.egress);
  let queue: Queue | null = null;
  return {
    config,
    fetch,
    http: createHttpPort({ fetch }),
    images: new RedisImageStore(deps.redis),
    emailQueue() {
      // Opened on the first project with an email integration: one connection per gateway.
      if (!queue) {
        queue = new Queue(EMAIL_QUEUE_NAME, { connection: { url: deps.config.REDIS_URL }, prefix: config.bullmqPrefix });
        queue.on('error', (error) => deps.logger.warn({ err: error }, 'email queue connection error'));
      }
      return queue;
    },
    close: async () => {
      await queue?.close();
    },
  };
}

/** Resources shared by every project's ports, created once per gateway process. */
export function createFlowPortsContext(deps: FlowPortsDeps): FlowPortsContext {
  const integrations = createSharedIntegrations(deps);
  return { deps: { ...deps, integrations }, close: () => integrations.close() };
}

/**
 * The ports of one project: outbound HTTP and images always (behind the egress guard), text
 * generation and email only when the project configured them — a missing port makes the
 * engine skip the block. A secret that cannot be decrypted gives a port that fails the
 * block with a clear message instead of silently skipping it.
 */
export function buildFlowPorts(project: PublishedProject, deps: FlowPortsDeps): FlowPorts {
  const shared = (deps.integrations ??= createSharedIntegrations(deps));
  const ports: FlowPorts = {
    http: shared.http,
    images: createImagePort({
      store: shared.images,
      publicBaseUrl: deps.config.GATEWAY_PUBLIC_URL.replace('{subdomain}', project.subdomain),
      fetch: shared.fetch,
      ttlSeconds: shared.config.images.ttlSeconds,
      maxBytes: shared.config.images.maxBytes,
      maxPixels: shared.config.images.maxPixels,
    }),
  };

  const text = project.integrations.text_generation;
  if (text) {
    const apiKey = decrypt(deps, project, 'text_generation', text.api_key_encrypted);
    ports.textGeneration =
      apiKey === null
        ? unusableTextGeneration()
        : createAnthropicPort({ apiKey, baseURL: shared.config.anthropicBaseUrl, defaultModel: text.default_model });
  }

  const email = project.integrations.email;
  if (email) {
    ports.email =
      decrypt(deps, project, 'email', email.api_key_encrypted) === null
        ? unusableEmail(email.verified_domains)
        : createEmailPort({
            queue: shared.emailQueue(),
            projectId: project.id,
            verifiedDomains: email.verified_domains,
            apiKeyEncrypted: email.api_key_encrypted,
            attempts: shared.config.emailQueueAttempts,
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
