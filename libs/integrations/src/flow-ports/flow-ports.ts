/**
 * Builds the engine's side-effect ports for one project: the one composition used by the
 * gateway (live requests) and the control plane (Workshop test runs), so a test run meets the
 * same egress guard, worker pool, integrations and failure messages as a live request.
 *
 * Imported through `@flowgate/integrations/flow-ports`, which loads none of the adapters: they
 * are required on first use (shared-integrations.ts) — when a project with a text-generation or
 * email integration is loaded, or an HTTP Request / Manipulate Image block first runs.
 */
import type { PublishedProject } from '@flowgate/contracts';
import { IntegrationError, type EmailPort, type FlowPorts, type ImagePort, type TextGenerationPort } from '@flowgate/flow-engine';
import { createDataPort, type FairDataPool } from '@flowgate/data-tables';
import type { Logger, RedisClient, SecretBox } from '@flowgate/platform';
import { createSharedIntegrations, loadIntegrations, type FlowPortsSettings, type SharedIntegrations } from './shared-integrations';

export interface FlowPortsDeps {
  settings: FlowPortsSettings;
  /** The process's command connection (images are stored under `fg:image:<id>`). */
  redis: RedisClient;
  /** Decrypts `api_key_encrypted` of the published integrations. */
  secrets: SecretBox;
  logger: Logger;
  /** The pool on DATA_DATABASE_URL (data tables), shared fairly between projects, asked for when a table block first runs; without it the table blocks fail. Closed by its owner. */
  data?: () => FairDataPool;
  /** Set by `createFlowPortsContext`; built on first use when absent. */
  integrations?: SharedIntegrations;
}

export interface FlowPortsContext {
  deps: FlowPortsDeps;
  close(): Promise<void>;
}

/** What the ports need of a project: its id, subdomain, published integrations and data tables. */
export type PortsProject = Pick<PublishedProject, 'id' | 'subdomain' | 'integrations' | 'tables'>;

/** Resources shared by every project's ports, created once per process. */
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
export function buildFlowPorts(project: PortsProject, deps: FlowPortsDeps): FlowPorts {
  const shared = (deps.integrations ??= createSharedIntegrations(deps));
  const publicBaseUrl = deps.settings.publicUrlTemplate.replace('{subdomain}', project.subdomain);
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
            filter: (task, signal) => shared.heavyWork().filterImage(project.id, task, signal),
          });
        }
        return images.manipulate(request, signal);
      },
    },
    regex: { match: (task, signal) => shared.heavyWork().matchRegex(project.id, task, signal) },
    // Short code runs at once on this thread; code that needs longer runs again in the pool (code-sandbox/).
    code: {
      runNow: (task) => shared.inlineCode().runNow(task),
      run: async (task, signal) => {
        // Here because the code needs more than its first millisecond, or because the sandbox of this thread was still loading.
        const inline = shared.inlineCode();
        const now = !inline.isLoaded && (await inline.loaded()) ? inline.runNow(task) : null;
        return now ?? shared.heavyWork().runCode(project.id, task, signal);
      },
    },
  };
  // Live requests, preview and test runs read and write the same tables.
  if (deps.data) ports.data = createDataPort(deps.data, project.id, project.tables ?? []);

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

function decrypt(deps: FlowPortsDeps, project: PortsProject, kind: string, sealed: string): string | null {
  try {
    return deps.secrets.decrypt(sealed);
  } catch {
    deps.logger.error({ project_id: project.id, integration: kind }, 'integration secret cannot be decrypted (FLOWGATE_ENCRYPTION_KEY differs from the control plane?)');
    return null;
  }
}

const UNDECRYPTABLE = 'the integration key cannot be decrypted by this gateway; re-save the integration or check FLOWGATE_ENCRYPTION_KEY';

function unusableTextGeneration(): TextGenerationPort {
  const refuse = async (): Promise<never> => {
    throw new IntegrationError('anthropic', UNDECRYPTABLE);
  };
  return { generate: refuse, stream: refuse };
}

function unusableEmail(verifiedDomains: string[]): EmailPort {
  return {
    verifiedDomains,
    enqueue: async () => {
      throw new IntegrationError('sendgrid', UNDECRYPTABLE);
    },
  };
}
