/**
 * A test-run thread (Piscina worker, started by test-run-sandbox.ts with V8 resourceLimits): runs
 * one flow at a time with the project's ports and a trace. Whatever the flow does to this
 * thread's heap or event loop, the control plane's own thread is not touched: the thread is
 * terminated at the deadline, or dies at its heap limit, and a new one takes its place.
 */
import { safeMessage, SecretMasker } from '@flowgate/contracts';
import { FairScheduler, prepareFlow, runFlow } from '@flowgate/flow-engine';
import { loadIntegrations } from '@flowgate/integrations/flow-ports';
import { performance } from 'node:perf_hooks';
import { workerData } from 'node:worker_threads';
import { createTestRunPorts, type TestRunPorts } from '../test-run-ports';
import { errorBody, TraceRecorder } from '../trace-recorder';
import { wholeStream, type WholeResult } from '../whole-stream';
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
  const functions = new Map(job.functions.map(([id, compiled]) => [id, prepareFlow(compiled as Parameters<typeof prepareFlow>[0])]));
  const flowPorts = { ...threadPorts.forProject(job.project, job.sendEmail), secrets: new Map(job.secrets.values), functions };
  const startedAt = performance.now();
  const ran = await runFlow(prepareFlow(job.compiled as Parameters<typeof prepareFlow>[0]), request, flowPorts, {
    timeoutMs: settings.flow.timeoutMs,
    limits: settings.flow.limits,
    scheduler,
    tracer,
  });
  let result: WholeResult;
  if (ran.type === 'stream') {
    result = await wholeStream(ran, settings.flow.timeoutMs - (performance.now() - startedAt));
    tracer.streamRead(ran.node_id, result);
  } else result = ran;
  const durationMs = performance.now() - startedAt;
  const body = bodyOf(result.type === 'error' ? { ...result, message: safeMessage(masker, result.message) } : result);
  return { status: result.status, body: masker === null ? body : masker.value(body), durationMs, trace: tracer.entries, streamed: ran.type === 'stream' };
}

/** The body exactly as a caller of the gateway parses it (JSON round trip: undefined dropped, `{}` without Respond body). */
function bodyOf(result: WholeResult): unknown {
  if (result.type === 'error') return errorBody(result);
  const json = result.body === undefined ? undefined : JSON.stringify(result.body);
  return JSON.parse(json === undefined ? '{}' : json) as unknown;
}
