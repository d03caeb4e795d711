import type { MaskedSecret } from '@flowgate/contracts';
import type { FlowLimits } from '@flowgate/flow-engine';
import type { MessagePort } from 'node:worker_threads';
import type { PortsProject } from '@flowgate/integrations/flow-ports';
import type { TraceEntry } from '../dto/test-run.dto';

/**
 * What a test-run thread is started with (`workerData`): everything it needs to build the
 * project's ports and run flows on its own, since it shares no object with the control plane.
 */
export interface SandboxSettings {
  gatewayPublicUrl: string;
  redisUrl: string;
  redisClusterNodes: string[] | null;
  encryptionKey: string;
  previousEncryptionKey: string | undefined;
  dataUrl: string;
  flow: { timeoutMs: number; limits: FlowLimits; workerQueue: number; workerTaskMs: number; codeMemoryMb: number };
  logLevel: string;
}

/** One test run, as the thread receives it: plain data (structured clone). */
export interface TestRunJob {
  project: PortsProject;
  /** Without it Send Email checks and shows its message instead of queueing it. */
  sendEmail: boolean;
  /** The flow engine's CompiledFlow. */
  compiled: unknown;
  /** The project's function drafts that compile, by id (CompiledFlow each): what Call Function runs in a test. */
  functions: Array<[string, unknown]>;
  request: { method: string; path: string; query: Array<[string, string]>; headers: Record<string, string>; body: unknown };
  /** What `{secrets.NAME}` reads, and every value to mask in the trace and the body (live and preview). */
  secrets: { values: Array<[string, string]>; masked: MaskedSecret[] };
  /** Told when the thread takes the run: the sandbox's deadline starts then. */
  started?: MessagePort;
}

/** What the thread answers: the response as a caller of the gateway would parse it, and the trace. */
export interface TestRunOutcome {
  status: number;
  body: unknown;
  durationMs: number;
  trace: TraceEntry[];
  /** The flow ended with Stream Text: the body is its answer read whole. */
  streamed: boolean;
}
