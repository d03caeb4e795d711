/**
 * The noisy project's traffic for the noisy-neighbour drill, in a process of its own so that
 * its work (1 MiB bodies out, answers in) does not slow the probe's load generator. Serves the
 * pixel-cap image on 127.0.0.1, runs one closed loop per connection until told to stop, and
 * sends back what every answer was (`status code`) over IPC. Told `pause`, each loop finishes
 * the request it has in flight and waits (`paused` once all do), until `resume`: the drill
 * measures its quiet baselines between noisy phases.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bandedPng } from '@flowgate/testing';

export interface NoiseLane {
  /** Shown in the counts (several lanes may share a path). */
  name: string;
  path: string;
  /** Default POST; a GET sends no body unless it is chunked. */
  method?: 'GET' | 'POST';
  /** Sent without Content-Length (chunked, on a GET too): the gateway learns the size only by reading. */
  chunked?: boolean;
  /** The request body; `{{IMAGE_URL}}` is replaced by the image server's address. */
  body: string;
  connections: number;
}

export interface NoiseConfig {
  port: number;
  host: string;
  lanes: NoiseLane[];
  imageWidth: number;
  imageHeight: number;
}

export type NoiseMessage = { ready: true } | { paused: true } | { resumed: true } | { counts: Record<string, Record<string, number>> };
export type NoiseCommand = 'pause' | 'resume' | 'stop';

/** The drill sends the configuration (bodies of a megabyte: too large for the environment), then commands. */
const nextMessage = (): Promise<unknown> => new Promise((resolve) => process.once('message', resolve));
let config: NoiseConfig;
const counts: Record<string, Record<string, number>> = {};
let stopping = false;
/** While paused: what the loops wait on, and how many wait. */
let gate: { opened: Promise<void>; open: () => void } | null = null;
let waiting = 0;
let loops = 0;

function tellIfPaused(): void {
  if (gate !== null && waiting === loops) process.send!({ paused: true } satisfies NoiseMessage);
}

function record(path: string, outcome: string): void {
  const lane = (counts[path] ??= {});
  lane[outcome] = (lane[outcome] ?? 0) + 1;
}

/** Successes larger than this are judged by their first and last byte: parsing each would make the attacker's client, not the gateway, what takes the machine. */
const PARSED_SUCCESS_BYTES = 64 * 1024;

/** `status code`: the error code of a JSON error body, `ok` for a success, `not_json` otherwise. */
function outcomeOf(status: number, chunks: Buffer[]): string {
  let bytes = 0;
  for (const chunk of chunks) bytes += chunk.length;
  if (status < 400 && bytes > PARSED_SUCCESS_BYTES) {
    // Neither joined nor decoded: a load generator reading 4 MB documents as text took a core.
    const first = chunks[0]![0];
    const lastChunk = chunks.at(-1)!;
    return first === 0x7b && lastChunk[lastChunk.length - 1] === 0x7d ? `${status} ok` : `${status} not_json`;
  }
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString()) as { success?: boolean; code?: string };
    if (status < 400) return `${status} ok`;
    return `${status} ${body.success === false && typeof body.code === 'string' ? body.code : 'no_code'}`;
  } catch {
    return `${status} not_json`;
  }
}

function send(agent: http.Agent, lane: NoiseLane, body: Buffer): Promise<string> {
  const get = lane.method === 'GET' && lane.chunked !== true;
  const headers: http.OutgoingHttpHeaders = get ? { host: config.host } : { host: config.host, 'content-type': 'application/json' };
  if (!get && lane.chunked !== true) headers['content-length'] = body.length;
  // Node chunks a body by default only for methods that usually carry one.
  if (lane.chunked === true) headers['transfer-encoding'] = 'chunked';
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port: config.port, path: lane.path, method: lane.method ?? 'POST', agent, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(outcomeOf(res.statusCode ?? 0, chunks)));
        res.on('error', (error) => resolve(`connection ${error.message}`));
      },
    );
    req.on('error', (error) => resolve(`connection ${(error as NodeJS.ErrnoException).code ?? error.message}`));
    req.end(get ? undefined : body);
  });
}

/** `body`: the lane's, encoded once for all its connections, as a load generator would (Node writes a megabyte string several times slower than its bytes). */
async function run(lane: NoiseLane, body: Buffer): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  while (!stopping) {
    if (gate !== null) {
      waiting++;
      tellIfPaused();
      await gate.opened;
      waiting--;
      continue;
    }
    record(lane.name, await send(agent, lane, body));
  }
  agent.destroy();
}

async function main(): Promise<void> {
  config = (await nextMessage()) as NoiseConfig;
  const png = bandedPng(config.imageWidth, config.imageHeight);
  const images = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png));
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  const imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/big.png`;
  const running: Array<Promise<void>> = [];
  for (const lane of config.lanes) {
    const body = Buffer.from(lane.body.replace('{{IMAGE_URL}}', imageUrl));
    for (let i = 0; i < lane.connections; i++) running.push(run(lane, body));
  }
  loops = running.length;
  process.send!({ ready: true } satisfies NoiseMessage);
  for (let command = (await nextMessage()) as NoiseCommand; command !== 'stop'; command = (await nextMessage()) as NoiseCommand) {
    if (command === 'pause' && gate === null) {
      let open!: () => void;
      gate = { opened: new Promise<void>((resolve) => (open = resolve)), open };
      tellIfPaused();
    } else if (command === 'resume' && gate !== null) {
      gate.open();
      gate = null;
      process.send!({ resumed: true } satisfies NoiseMessage);
    }
  }
  stopping = true;
  gate?.open();
  await Promise.all(running);
  images.close();
  process.send!({ counts } satisfies NoiseMessage, () => process.exit(0));
}

void main();
