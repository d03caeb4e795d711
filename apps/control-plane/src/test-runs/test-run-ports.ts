import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { EmailPort, FlowPorts } from '@flowgate/flow-engine';
import { buildFlowPorts, createFlowPortsContext, type FlowPortsContext, type PortsProject } from '@flowgate/integrations/flow-ports';
import { createLogger, type RedisClient, SecretBox } from '@flowgate/platform';
import { Redis } from 'ioredis';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { DataDatabase } from '../infrastructure/data-database';

/**
 * The gateway's port factory in the control plane: the same egress guard (FLOWGATE_EGRESS_*),
 * worker pool (FLOW_WORKER_*), image store, Anthropic client and email queue. The adapters load
 * on the first test run that needs them; the pool and the queue connection close at shutdown.
 */
@Injectable()
export class TestRunPorts implements OnApplicationShutdown {
  private readonly context: FlowPortsContext;

  constructor(@Inject(CONFIG) config: ControlPlaneConfig, @Inject(Redis) redis: RedisClient, secrets: SecretBox, data: DataDatabase) {
    this.context = createFlowPortsContext({
      settings: {
        publicUrlTemplate: config.gatewayPublicUrl,
        redisTarget: { url: config.redisUrl, clusterNodes: config.redisClusterNodes },
        workerThreads: config.flow.workerThreads,
        workerQueue: config.flow.workerQueue,
        workerTaskMs: config.flow.workerTaskMs,
      },
      redis,
      secrets,
      logger: createLogger('control-plane', config.logLevel),
      // Test runs read and write the same tables as live requests.
      data: data.pool,
    });
  }

  /** The project's ports; without `sendEmail`, Send Email checks and shows its message instead of queueing it. */
  forProject(project: PortsProject, sendEmail: boolean): FlowPorts {
    const ports = buildFlowPorts(project, this.context.deps);
    if (ports.email && !sendEmail) ports.email = dryRun(ports.email);
    return ports;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.context.close();
  }
}

const dryRun = (email: EmailPort): EmailPort => ({
  verifiedDomains: email.verifiedDomains,
  dryRun: true,
  enqueue: () => Promise.reject(new Error('a dry-run email port never queues')),
});
