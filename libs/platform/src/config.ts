import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { redisClusterNodesVariable } from './redis';

/** A configuration problem, reported as one line naming the variable and the fix. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

let dotenvLoaded = false;

/** Loads `.env` from the repository root once (values already in the environment win). */
export function loadDotenv(root = process.cwd()): void {
  if (dotenvLoaded) return;
  dotenvLoaded = true;
  const file = resolve(root, '.env');
  if (existsSync(file)) process.loadEnvFile(file);
}

/**
 * Validates the environment against an app's schema. Every problem is named in one line:
 * `DATABASE_URL: must be a postgresql:// URL (e.g. postgresql://postgres@127.0.0.1:5432/flowgate)`.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  if (env === process.env) loadDotenv();
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`);
  throw new ConfigError(`invalid configuration — ${problems.join('; ')}`);
}

const urlWithProtocols = (protocols: string[], example: string) =>
  z
    .string({ error: `is required (e.g. ${example})` })
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, `must be a ${protocols.map((p) => `${p}//`).join(' or ')} URL (e.g. ${example})`);

/** The default the docs give the stack's two secrets (scripts/lib/dev-secrets.js makes them; production sets them). */
export const devSecretDefault = { defaultText: 'dev: generated once per machine into the dev secrets file by the scripts' };

/** Variables shared by the backend apps, with the defaults of the README. */
export const env = {
  databaseUrl: urlWithProtocols(['postgresql:', 'postgres:'], 'postgresql://postgres@127.0.0.1:5432/flowgate')
    .default('postgresql://postgres@127.0.0.1:5432/flowgate')
    .describe('PostgreSQL; created and migrated by `npm start`/`npm run up`/`npm run db:migrate`'),
  redisUrl: urlWithProtocols(['redis:', 'rediss:'], 'redis://127.0.0.1:6379')
    .default('redis://127.0.0.1:6379')
    .describe('published configuration, keys, rate limits, images, BullMQ'),
  /** Seeds of a Redis Cluster; null (unset) = single node at `redisUrl`. */
  redisClusterNodes: redisClusterNodesVariable,
  kafkaBrokers: z
    .string()
    .default('127.0.0.1:9092')
    .transform((value) => value.split(',').map((broker) => broker.trim()).filter(Boolean))
    .refine((brokers) => brokers.length > 0 && brokers.every((b) => /^[^:\s]+:\d{1,5}$/.test(b)), {
      message: 'must be a comma-separated list of host:port (e.g. 127.0.0.1:9092)',
    })
    .describe('comma-separated `host:port`; the scripts start a local KRaft broker there when none answers'),
  port: (fallback: number) =>
    z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(fallback),
  positiveInt: (fallback: number) => z.coerce.number({ error: 'must be a whole number' }).int().positive().default(fallback),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino level (`fatal` … `trace`, `silent`)'),
  nodeEnv: z
    .enum(['development', 'production', 'test'])
    .default('development')
    .describe('`development`, `test` or `production`; outside development FLOWGATE_ENCRYPTION_KEY and FLOWGATE_SERVICE_TOKEN are required'),
};
