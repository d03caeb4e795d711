import type { EmailPort, FlowPorts } from '@flowgate/flow-engine';
import { createDataPool, FairDataPool } from '@flowgate/data-tables';
import { buildFlowPorts, createFlowPortsContext, type PortsProject } from '@flowgate/integrations/flow-ports';
import { createLogger, createRedisClient, SecretBox } from '@flowgate/platform';
import type { SandboxSettings } from './sandbox/test-run-job';

/** Per test-run thread: one run at a time, so two connections (one per project at most) are plenty. */
const DATA_CONNECTIONS = 2;

export interface TestRunPorts {
  /** The project's ports; without `sendEmail`, Send Email checks and shows its message instead of queueing it. */
  forProject(project: PortsProject, sendEmail: boolean): FlowPorts;
  close(): Promise<void>;
}

/**
 * The one place where a test run's ports are wired: the gateway's port factory with the same
 * egress guard (FLOWGATE_EGRESS_*), heavy-work pool (FLOW_WORKER_QUEUE/TASK_MS; one thread per test-run thread), image store, Anthropic
 * client, email queue and data tables, built inside each test-run thread
 * (sandbox/test-run.worker.ts) from its settings. The adapters load on the first run that needs
 * them; the connections close with the thread.
 */
export function createTestRunPorts(settings: SandboxSettings): TestRunPorts {
  const redis = createRedisClient({ url: settings.redisUrl, clusterNodes: settings.redisClusterNodes }, { node: { connectionName: 'flowgate-test-runs' } });
  const data = new FairDataPool(createDataPool({ url: settings.dataUrl, max: DATA_CONNECTIONS, applicationName: 'flowgate-test-runs' }), DATA_CONNECTIONS);
  const context = createFlowPortsContext({
    settings: {
      publicUrlTemplate: settings.gatewayPublicUrl,
      redisTarget: { url: settings.redisUrl, clusterNodes: settings.redisClusterNodes },
      // One run per test-run thread, its blocks one after the other: one heavy-work thread each
      // is all a run can use, so TEST_RUN_THREADS runs never hold more than as many heavy threads.
      workerThreads: 1,
      workerQueue: settings.flow.workerQueue,
      workerTaskMs: settings.flow.workerTaskMs,
      codeMemoryMb: settings.flow.codeMemoryMb,
    },
    redis,
    secrets: new SecretBox(settings.encryptionKey, [settings.previousEncryptionKey]),
    logger: createLogger('control-plane', settings.logLevel),
    // Test runs read and write the same tables as live requests.
    data: () => data,
  });
  return {
    forProject(project, sendEmail) {
      const ports = buildFlowPorts(project, context.deps);
      if (ports.email && !sendEmail) ports.email = dryRun(ports.email);
      return ports;
    },
    async close() {
      await context.close();
      await data.pool.end();
      redis.disconnect();
    },
  };
}

const dryRun = (email: EmailPort): EmailPort => ({
  verifiedDomains: email.verifiedDomains,
  dryRun: true,
  enqueue: () => Promise.reject(new Error('a dry-run email port never queues')),
});
