import { probeTcp } from '@flowgate/platform';
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './ports';
import { waitFor } from './polling';

/**
 * A redis-server of the test's own (no persistence), so a test can take Redis away without
 * touching the shared instance.
 */
export class PrivateRedis {
  private child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.up();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitFor(() => probeTcp('127.0.0.1', this.port, 200).then(() => true), `redis-server on ${this.port}`, 10_000);
  }

  async down(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.child = null;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
