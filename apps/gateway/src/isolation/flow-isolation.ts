import { FairScheduler, runFlow, type ExecuteOptions, type FlowLimits, type FlowPorts, type FlowRequest, type FlowScheduler, type PreparedFlow } from '@flowgate/flow-engine';
import { CostLedger } from '@flowgate/platform';
import type { IncomingMessage } from 'node:http';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { sendError } from '../http/errors';
import { answerFlow } from '../http/flow-answer';
import type { GatewayResponse } from '../http/gateway-response';
import { readRawBody, type BodyFailure } from '../http/request-body';
import { HeapAdmission, type ProjectMemory } from './heap-admission';
import { LARGE_BODY_BYTES, LargeBodies } from './large-bodies';
import { LoopShare } from './loop-share';

export { LARGE_BODY_BYTES } from './large-bodies';

/** A body read, and the large-body slot it holds (a no-op to release when it is small). */
export interface ReadBody {
  raw: Buffer | BodyFailure;
  release(): void;
}

export interface FlowIsolationOptions {
  limits: FlowLimits;
  flowTimeoutMs: number;
  /** GATEWAY_HEAP_HIGH_PERCENT: see heap-admission.ts. */
  heapHighPercent: number;
  /** Tests: a heap reading instead of V8's. */
  heap?: { usedBytes: () => number; limitBytes: number };
}

/** What the handler knows of the flow to run. */
export interface FlowToRun {
  projectId: string;
  flow: PreparedFlow;
  ports: FlowPorts;
  request: FlowRequest;
}

interface ProjectRuns {
  memory: ProjectMemory;
  options: ExecuteOptions;
}

const NEVER_ABORTED = new AbortController().signal;
/** A project's loop time counts half as much after a second: its share follows what it does now. */
const LOOP_COST_HALF_LIFE_MS = 1000;
/** Long runs took turns this recently: a collector pause now is theirs. */
const TAKING_TURNS_MS = 100;
/** After a long run's slice of L ms, the rest of the loop gets 2·L while requests are being served. */
const REST_SHARE_WHILE_SERVING = 2;
const MEMORY_REFUSAL = 'This project is using more of the gateway’s memory than it can spare right now; retry shortly';

/**
 * The one place where the request handler hands a flow over to run: every limit one process
 * enforces between projects is applied here or below (docs/gateway.md "Isolation: which limit
 * is enforced where"). In order: admission by heap use (heap-admission.ts), the project's share
 * of the event loop (loop-share.ts), large bodies parsed in turns and bounded per project
 * (large-bodies.ts), and the engine's own bounds, given with every run: the deadline, the CPU
 * budget, slices of the event loop handed out by one fair scheduler, value sizes, and the
 * memory a run keeps (FLOW_MAX_RUN_BYTES), counted per project for the admission control.
 * Every scheduled turn (a hot project's run, a large body, a long run's next slice) goes to the
 * project whose flows took the least loop time of late (`loopCost`; docs/fair-shares.md), so a
 * turn of a noisy project that costs a thousand of a quiet one's is weighed as such.
 */
export class FlowIsolation {
  /** Shared by every run of the process: long flows take turns on the event loop, the project that used it least first. */
  readonly scheduler: FairScheduler;
  /** Loop time each project's flows took lately (every slice, and runs finished at once with their answer). */
  private readonly loopCost = new CostLedger(LOOP_COST_HALF_LIFE_MS);
  private readonly share = new LoopShare();
  private readonly largeBodies: LargeBodies;
  private readonly heap: HeapAdmission;
  /** Per project: its memory account and its run options (the deadline is relative), so none is built per request. */
  private readonly projects = new Map<string, ProjectRuns>();

  /** The collector's pauses, reported after they happened (see `constructor`). */
  private readonly collector: PerformanceObserver;

  constructor(private readonly config: FlowIsolationOptions) {
    // setImmediate runs after the loop polled its sockets: requests that arrived meanwhile go first.
    // While ordinary requests are being served beside long runs, long runs get a third of the
    // loop, not half: the requests' HTTP work and the collector come out of the rest too.
    this.scheduler = new FairScheduler({
      maxSliceMs: config.limits.sliceMs,
      defer: setImmediate,
      costOf: (projectId) => this.loopCost.consumed(projectId),
      restShare: () => (this.share.servingRequests ? REST_SHARE_WHILE_SERVING : 1),
    });
    this.largeBodies = new LargeBodies(this.scheduler);
    this.heap = new HeapAdmission({ highPercent: config.heapHighPercent, ...config.heap });
    // A collector pause while long runs take turns is theirs: their large values are what it
    // marks and moves. Counted outside their slices (a pause inside one is in its length), it
    // is owed to the rest of the loop too, so that long runs keep to half of the loop with the
    // collection their work causes, not half before it.
    this.collector = new PerformanceObserver((entries) => {
      let pausedMs = 0;
      for (const entry of entries.getEntries()) pausedMs += entry.duration;
      if (this.scheduler.longRunsTakingTurns(TAKING_TURNS_MS)) this.scheduler.owe(pausedMs);
    });
    this.collector.observe({ entryTypes: ['gc'] });
  }

  /**
   * How long an answer of the request's project waits before it closes its connection with the
   * body unread (http/gateway-response.ts): a project that keeps sending bodies to be refused
   * while others are served has such answers spaced out (loop-share.ts `closeUnread`).
   */
  readonly holdUnreadClose = (res: GatewayResponse): number => (res.projectId === null ? 0 : this.share.closeUnread(res.projectId, performance.now()));

  /** Stops watching the collector (the gateway closes). */
  close(): void {
    this.collector.disconnect();
  }

  /** Runs the flow and answers; within this call when it ran synchronously, else the pending answer. */
  run(res: GatewayResponse, run: FlowToRun): Promise<void> | undefined {
    if (!this.heap.admits(this.project(run.projectId).memory)) return refuseForMemory(res);
    if (this.share.isHot(run.projectId)) return this.runInTurn(res, run);
    return this.runNow(res, run, true);
  }

  /**
   * Reads a request's body. One that is large (declared or grown over 64 KiB) waits for one of
   * its project's large-body slots before reading on, its socket paused (large-bodies.ts): a
   * project sending many large bodies, or bodies over the limit without a Content-Length (read
   * up to the limit before they can be refused), has two read at a time, whatever their number.
   * The slot is kept until `release` (after the answer).
   */
  async readBody(req: IncomingMessage, projectId: string, limit: number): Promise<ReadBody> {
    let slot: (() => void) | null = null;
    let read = false;
    const wait = async (): Promise<void> => {
      const release = await this.largeBodies.admit(projectId);
      if (read) release(); // the request ended (or failed) while it waited
      else slot = release;
    };
    const raw = await readRawBody(req, limit, { bytes: LARGE_BODY_BYTES, wait });
    read = true;
    return {
      raw,
      release: () => {
        slot?.();
        slot = null;
      },
    };
  }

  /**
   * A request with a large body (its slot taken by `readBody`): parsing in a scheduled turn,
   * and the flow started in a turn of its own (its first block likely reads the whole body
   * too). `parse` answers a refusal itself and returns undefined.
   */
  async runWithLargeBody(res: GatewayResponse, projectId: string, parse: () => FlowToRun | undefined): Promise<void> {
    if (!this.heap.admits(this.project(projectId).memory)) return refuseForMemory(res);
    await this.largeBodies.turn(projectId);
    const parsing = performance.now();
    const run = parse();
    this.charge(projectId, parsing, performance.now());
    this.largeBodies.endTurn();
    if (run === undefined) return;
    await this.largeBodies.turn(projectId);
    const running = this.runNow(res, run);
    this.largeBodies.endTurn();
    await running;
  }

  /**
   * Runs the flow now, and counts the loop time it took against the project: the run, its
   * answer (made after the last slice of a run that went on), and the writing of a large answer.
   */
  private runNow(res: GatewayResponse, { projectId, flow, ports, request }: FlowToRun, atOnce = false): Promise<void> | undefined {
    const started = performance.now();
    const project = this.project(projectId);
    res.onWrite = this.chargeWrite;
    const result = runFlow(flow, request, ports, project.options);
    let pending: Promise<void> | undefined;
    if (result instanceof Promise) {
      project.memory.started();
      pending = result.then((settled) => {
        project.memory.ended();
        const answering = performance.now();
        answerFlow(res, settled);
        this.chargeOutsideSlices(projectId, answering);
      });
    } else answerFlow(res, result);
    // A run that goes on reports each of its slices itself, the first one included (projectScheduler).
    if (pending === undefined) this.charge(projectId, started, performance.now(), atOnce);
    return pending;
  }

  /**
   * A project taking more than its share of the loop waits for a scheduled turn first; the run,
   * the writing of its answer and its log record are then owed to the rest of the loop, however
   * cheap (`FairScheduler` sums the small dues): a flood of cheap requests keeps to its share
   * with the HTTP work it causes, not only with its flows' time.
   */
  private async runInTurn(res: GatewayResponse, run: FlowToRun): Promise<void> {
    res.heldBack = true;
    await this.scheduler.turn(NEVER_ABORTED, run.projectId);
    const pending = this.runNow(res, run);
    this.scheduler.sliceEnded();
    await pending;
  }

  /** The shared scheduler as one project's runs see it: they wait in the project's line, and each slice is charged to it. */
  private projectScheduler(projectId: string): FlowScheduler {
    return {
      turn: (signal) => this.scheduler.turn(signal, projectId),
      sliceEnded: (usedMs) => {
        if (usedMs !== undefined) {
          const now = performance.now();
          this.charge(projectId, now - usedMs, now);
        }
        this.scheduler.sliceEnded();
      },
    };
  }

  /**
   * Work of a run after its slices (its answer, the writing of a large one), from `started` to
   * now: the project's loop time, and owed to the rest of the loop before the next scheduled
   * slice — a run whose 1 MiB answer takes milliseconds to make and write takes them from its
   * half of the loop, not from the other projects'.
   */
  private chargeOutsideSlices(projectId: string, started: number): void {
    const now = performance.now();
    this.charge(projectId, started, now);
    this.scheduler.owe(now - started);
  }

  private readonly chargeWrite = (res: GatewayResponse, ms: number): void => {
    if (res.projectId !== null) this.chargeOutsideSlices(res.projectId, performance.now() - ms);
  };

  /**
   * Writes an answer that is not a flow's (the project's OpenAPI document, megabytes for a large
   * project: http/openapi-route.ts) as the project's loop time; a project taking more than its
   * share of the loop writes it in a scheduled turn, owed to the rest of the loop as a slice is.
   */
  answerInTurn(res: GatewayResponse, write: () => void): Promise<void> | undefined {
    const projectId = res.projectId;
    if (projectId === null) return void write();
    if (!this.share.isHot(projectId)) return void this.timeWrite(projectId, write);
    res.heldBack = true;
    return this.scheduler.turn(NEVER_ABORTED, projectId).then(() => {
      if (!res.destroyed) this.timeWrite(projectId, write);
      this.scheduler.sliceEnded();
    });
  }

  private timeWrite(projectId: string, write: () => void): void {
    const started = performance.now();
    write();
    this.charge(projectId, started, performance.now());
  }

  /** A held-back request's log record (request-handler.ts `record`, which checks `heldBack`) took the loop from `started` to now. */
  chargeRecord(projectId: string, started: number): void {
    this.chargeOutsideSlices(projectId, started);
  }

  /**
   * Loop time the project's work took from `started` to `now`: for its share (loop-share.ts,
   * which holds back a project that took most of a busy window) and its place in the
   * scheduler's order (`loopCost`). Every slice of a long run counts, not only its first: a
   * project whose runs go on in slices is seen as taking the loop it takes.
   */
  private charge(projectId: string, started: number, now: number, atOnce = false): void {
    this.share.record(projectId, now - started, now, atOnce);
    this.loopCost.charge(projectId, now - started);
  }

  /**
   * The project left the gateway's cache: its entry goes (runs in flight keep theirs; a later
   * request makes a new one). Without this every project ever served kept one.
   */
  forget(projectId: string): void {
    if (this.projects.delete(projectId)) this.heap.forget(projectId);
  }

  private project(projectId: string): ProjectRuns {
    let project = this.projects.get(projectId);
    if (project === undefined) {
      const { flowTimeoutMs, limits } = this.config;
      const memory = this.heap.account(projectId);
      project = { memory, options: { timeoutMs: flowTimeoutMs, limits, scheduler: this.projectScheduler(projectId), memory } };
      this.projects.set(projectId, project);
    }
    return project;
  }
}

function refuseForMemory(res: GatewayResponse): undefined {
  sendError(res, 'unavailable', MEMORY_REFUSAL, { 'retry-after': '1' });
  return undefined;
}
