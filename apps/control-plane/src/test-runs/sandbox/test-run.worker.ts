/**
 * A test-run thread (Piscina worker, started by test-run-sandbox.ts with V8 resourceLimits): runs
 * one flow at a time with the project's ports and a trace. Whatever the flow does to this
 * thread's heap or event loop, the control plane's own thread is not touched: the thread is
 * terminated at the deadline, or dies at its heap limit, and a new one takes its place.
 */
import { SecretMasker } from '@flowgate/contracts';
import { FairScheduler, prepareFlow, runFlow, type FlowResult } from '@flowgate/flow-engine';
import { loadIntegrations } from '@flowgate/integrations/flow-ports';
import { performance } from 'node:perf_hooks';
import { workerData } from 'node:worker_threads';
import { createTestRunPorts, type TestRunPorts } from '../test-run-ports';
import { errorBody, TraceRecorder } from '../trace-recorder';
import type { SandboxSettings, TestRunJob, TestRunOutcome } from './test-run-job';

const settings = workerData as SandboxSettings;
let ports: TestRunPorts | undefined;
// Its own scheduler: long test flows take turns, as on a gateway.
const scheduler = new FairScheduler({ maxSliceMs: settings.flow.limits.sliceMs, defer: setImmediate });

/**
 * Builds the ports and loads the adapters. From TypeScript source (development, tests) that takes
 * seconds on a busy machine: it happens while the thread is idle, and at the latest before a run
 * says `started`, so neither the flow's deadline nor the sandbox's pays for a cold thread.
 */
function warmUp(): TestRunPorts {
  ports ??= createTestRunPorts(settings);
  loadIntegrations();
  return ports;
}
setImmediate(warmUp);

export default async function runTestFlow(job: TestRunJob): Promise<TestRunOutcome> {
  const threadPorts = warmUp();
  job.started?.postMessage('started');
  const request = { ...job.request, query: new URLSearchParams(job.request.query) };
  const masker = SecretMasker.of(job.secrets.masked);
  const tracer = new TraceRecorder(masker);
  const flowPorts = { ...threadPorts.forProject(job.project, job.sendEmail), secrets: new Map(job.secrets.values) };
  const startedAt = performance.now();
  const result = await runFlow(prepareFlow(job.compiled as Parameters<typeof prepareFlow>[0]), request, flowPorts, {
    timeoutMs: settings.flow.timeoutMs,
    limits: settings.flow.limits,
    scheduler,
    tracer,
  });
  const durationMs = performance.now() - startedAt;
  const body = bodyOf(result);
  return { status: result.status, body: masker === null ? body : masker.value(body), durationMs, trace: tracer.entries };
}

/** The body exactly as a caller of the gateway parses it (JSON round trip: undefined dropped, `{}` without Respond body). */
function bodyOf(result: FlowResult): unknown {
  if (result.type === 'error') return errorBody(result);
  const json = result.body === undefined ? undefined : JSON.stringify(result.body);
  return JSON.parse(json === undefined ? '{}' : json) as unknown;
}
