/**
 * Builds the engine's side-effect ports for one project.
 *
 * SHARED FILE: the gateway work created it with empty ports; the integrations work fills it
 * in (HTTP egress, images, Anthropic text generation, email enqueue) and owns its contents.
 * The gateway calls `createFlowPortsContext` once at start-up (shared clients, closed at
 * shutdown) and `buildFlowPorts` once per project configuration load — never per request.
 */
import type { PublishedProject } from '@flowgate/contracts';
import type { FlowPorts } from '@flowgate/flow-engine';
import type { Logger, SecretBox } from '@flowgate/platform';
import type { Redis } from 'ioredis';
import type { GatewayConfig } from './config';

export interface FlowPortsDeps {
  config: GatewayConfig;
  /** The gateway's command connection (images are stored under `fg:image:<id>`). */
  redis: Redis;
  /** Decrypts `api_key_encrypted` of the published integrations. */
  secrets: SecretBox;
  logger: Logger;
}

export interface FlowPortsContext {
  deps: FlowPortsDeps;
  close(): Promise<void>;
}

/** Resources shared by every project's ports, created once per gateway process. */
export function createFlowPortsContext(deps: FlowPortsDeps): FlowPortsContext {
  return { deps, close: async () => undefined };
}

/** Filled in by the integrations work; until then every optional block is skipped. */
export function buildFlowPorts(_project: PublishedProject, _deps: FlowPortsDeps): FlowPorts {
  return {};
}
