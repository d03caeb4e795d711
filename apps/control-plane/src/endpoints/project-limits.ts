import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { RateWindows } from '../infrastructure/rate-windows';
import type { Tx } from '../infrastructure/transaction';
import { type EndpointContent, EndpointsRepository } from './endpoints.repository';

export type LimitedAction = 'save' | 'deploy' | 'import';

const ACTION_WORDS: Record<LimitedAction, string> = { save: 'saves', deploy: 'deploys', import: 'imports' };

const formatted = (n: number) => n.toLocaleString('en-US');

/** Bytes of what a version holds that the gateways and the OpenAPI document carry: settings and flow as JSON. */
export const contentBytes = (content: EndpointContent): number =>
  Buffer.byteLength(JSON.stringify(content.flow) ?? '') + Buffer.byteLength(JSON.stringify(content.queryParams) ?? '') + Buffer.byteLength(content.name) + Buffer.byteLength(content.path);

/**
 * The limits of one project (docs/control-plane.md "Limits of one project"): what one project
 * may hold and how often one account may Save, Deploy and Import, so that no project makes the
 * shared control plane, the gateways or the OpenAPI document slow for the others. Each check
 * names the limit and its variable.
 */
@Injectable()
export class ProjectLimits {
  private readonly limits: ControlPlaneConfig['projectLimits'];

  constructor(
    @Inject(CONFIG) config: ControlPlaneConfig,
    private readonly rates: RateWindows,
    private readonly endpoints: EndpointsRepository,
  ) {
    this.limits = config.projectLimits;
  }

  /** Counts one Save/Deploy/Import of the account, or 429 `rate_limited` with Retry-After. */
  count(accountId: string, action: LimitedAction): Promise<void> {
    const max = this.limits.perMinute[action];
    return this.rates.take({ key: `fg:cp:${action}s:${accountId}`, max, windowMs: 60_000, what: `At most ${max} ${ACTION_WORDS[action]} per minute` });
  }

  /** One flow document (saved, imported or test-run) → 413 `payload_too_large` past PROJECT_MAX_FLOW_BYTES. */
  assertFlowSize(flow: unknown): void {
    const bytes = Buffer.byteLength(JSON.stringify(flow) ?? '');
    if (bytes <= this.limits.maxFlowBytes) return;
    const message = `The flow is ${formatted(bytes)} bytes; one flow may have at most ${formatted(this.limits.maxFlowBytes)} (PROJECT_MAX_FLOW_BYTES)`;
    throw new AppError('payload_too_large', message, [{ path: 'flow', message: `must be at most ${formatted(this.limits.maxFlowBytes)} bytes` }]);
  }

  /** Before a new endpoint (under the project's lock) → 422 `too_many_endpoints` at PROJECT_MAX_ENDPOINTS. */
  async assertRoomForEndpoint(tx: Tx, projectId: string): Promise<void> {
    const max = this.limits.maxEndpoints;
    if ((await this.endpoints.count(projectId, tx)) < max) return;
    throw new AppError('too_many_endpoints', `A project may have at most ${formatted(max)} endpoints (PROJECT_MAX_ENDPOINTS); delete one first`);
  }

  /**
   * Before `content` goes live for `endpointId` (Deploy, rollback; under the lock): the live
   * configuration of the whole project → 422 `project_too_large` past PROJECT_MAX_LIVE_BYTES.
   * It bounds what the gateways hold and the size of the project's OpenAPI document.
   */
  async assertLiveSize(tx: Tx, projectId: string, endpointId: string, content: EndpointContent): Promise<void> {
    const max = this.limits.maxLiveBytes;
    const total = (await this.endpoints.liveBytesExcept(tx, projectId, endpointId)) + contentBytes(content);
    if (total <= max) return;
    throw new AppError(
      'project_too_large',
      `The live endpoints of this project would hold ${formatted(total)} bytes; the limit is ${formatted(max)} (PROJECT_MAX_LIVE_BYTES). Undeploy an endpoint or make this flow smaller`,
    );
  }
}
