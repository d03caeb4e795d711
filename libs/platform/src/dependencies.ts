import net from 'node:net';
import { splitHostPort } from './redis';

/** An unreachable dependency at start-up; the message says which one and how to fix it. */
export class DependencyError extends Error {
  override name = 'DependencyError';
}

const HINT = 'start the local stack with `npm run up`, or fix the variable';

function describe(error: unknown): string {
  const err = error as NodeJS.ErrnoException & { errors?: NodeJS.ErrnoException[] };
  return err.code ?? err.errors?.[0]?.code ?? err.message ?? String(error);
}

/** Opens and closes a TCP connection; enough to tell "down" from "up" before a client library retries forever. */
export function probeTcp(host: string, port: number, timeoutMs = 2000): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.end();
      resolve();
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function hostPort(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', port: Number(parsed.port) || defaultPort };
}

export async function checkPostgres(databaseUrl: string): Promise<void> {
  const { host, port } = hostPort(databaseUrl, 5432);
  try {
    await probeTcp(host, port);
  } catch (error) {
    throw new DependencyError(`PostgreSQL is not reachable at ${host}:${port} (${describe(error)}) — ${HINT} DATABASE_URL`);
  }
}

/** Single node: REDIS_URL answers. Cluster: at least one seed of REDIS_CLUSTER_NODES answers. */
export async function checkRedis(redisUrl: string, clusterNodes: string[] | null = null): Promise<void> {
  if (clusterNodes !== null) {
    const errors: string[] = [];
    for (const node of clusterNodes) {
      const { host, port } = splitHostPort(node);
      try {
        return await probeTcp(host, port);
      } catch (error) {
        errors.push(`${node} (${describe(error)})`);
      }
    }
    throw new DependencyError(`no Redis Cluster seed is reachable: ${errors.join(', ')} — fix REDIS_CLUSTER_NODES`);
  }
  const { host, port } = hostPort(redisUrl, 6379);
  try {
    await probeTcp(host, port);
  } catch (error) {
    throw new DependencyError(`Redis is not reachable at ${host}:${port} (${describe(error)}) — ${HINT} REDIS_URL`);
  }
}

export async function checkKafka(brokers: string[]): Promise<void> {
  const errors: string[] = [];
  for (const broker of brokers) {
    const index = broker.lastIndexOf(':');
    try {
      await probeTcp(broker.slice(0, index), Number(broker.slice(index + 1)));
      return;
    } catch (error) {
      errors.push(`${broker} (${describe(error)})`);
    }
  }
  throw new DependencyError(`Kafka is not reachable at ${errors.join(', ')} — ${HINT} KAFKA_BROKERS`);
}
