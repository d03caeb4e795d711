import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@flowgate/testing';

function binDir(): string {
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (fromConfig.status === 0 && existsSync(join(fromConfig.stdout.trim(), 'initdb'))) return fromConfig.stdout.trim();
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) if (existsSync(`/usr/lib/postgresql/${version}/bin/initdb`)) return `/usr/lib/postgresql/${version}/bin`;
  throw new Error('fault drill: PostgreSQL server binaries (initdb, pg_ctl) not found');
}

/**
 * A PostgreSQL server of its own (initdb in a temporary directory, its own port, trust auth),
 * so a drill can stop and start it without touching the server every other test uses.
 * PostgreSQL refuses to run as root: as root, it runs as the `postgres` user.
 */
export class PrivatePostgres {
  readonly dir = mkdtempSync(join(tmpdir(), 'flowgate-faultdrill-pg-'));
  private readonly bin = binDir();
  private port = 0;
  private exitHook: (() => void) | null = null;

  get data(): string {
    return join(this.dir, 'data');
  }

  url(database = 'postgres'): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async init(): Promise<void> {
    this.port = await freePort();
    if (process.getuid?.() === 0) chownSync(this.dir, this.postgresUid(), this.postgresGid());
    this.run('initdb', ['-D', this.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  }

  start(): void {
    if (!this.exitHook) {
      // Never outlive the test process, whatever way it ends (pg_ctl runs the server detached).
      this.exitHook = () => this.destroy();
      process.once('exit', this.exitHook);
    }
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c shared_buffers=32MB -c max_connections=30`;
    this.run('pg_ctl', ['-D', this.data, '-o', options, '-l', join(this.dir, 'server.log'), '-w', '-t', '60', 'start']);
  }

  /** `fast` ends every session and stops cleanly; `immediate` is a crash (recovery on the next start). */
  stop(mode: 'fast' | 'immediate' = 'fast'): void {
    this.run('pg_ctl', ['-D', this.data, '-m', mode, '-w', '-t', '60', 'stop']);
  }

  destroy(): void {
    if (this.exitHook) process.removeListener('exit', this.exitHook);
    this.exitHook = null;
    if (existsSync(join(this.data, 'postmaster.pid'))) {
      try {
        this.stop('immediate');
      } catch {
        // already stopped
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  logTail(lines = 20): string {
    try {
      return readFileSync(join(this.dir, 'server.log'), 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }

  private run(tool: string, args: string[]): void {
    const command = join(this.bin, tool);
    const result =
      process.getuid?.() === 0
        ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8', cwd: this.dir })
        : spawnSync(command, args, { encoding: 'utf8', cwd: this.dir });
    if (result.status !== 0) throw new Error(`fault drill: ${tool} ${args.at(-1)} failed — ${(result.stderr || result.stdout || String(result.error)).trim()}`);
  }

  private postgresUid(): number {
    return Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  }

  private postgresGid(): number {
    return Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  }
}
