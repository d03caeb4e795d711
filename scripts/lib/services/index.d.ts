// Types of scripts/lib/services (index.js and the modules it gathers), the one declaration of
// them: TypeScript callers (tests, drills, benchmarks) `import { ensureServices } from
// '…/scripts/lib/services'` and get these; the JavaScript modules take their shared types from
// here too (JSDoc `import('./index')`), and index.js `satisfies` this module, so
// `npm run typecheck` (tsconfig.scripts.json) fails when the two part.

/** The addresses used when neither the options nor the environment give one. */
export const DEFAULTS: Readonly<{
  /** PostgreSQL's own `postgres` database, for creating others. */
  databaseAdminUrl: string;
  /** DATABASE_URL */
  databaseUrl: string;
  /** REDIS_URL */
  redisUrl: string;
  /** KAFKA_BROKERS */
  kafkaBrokers: string;
}>;

/** What ensureServices may start and stopStartedServices stop. */
export type ServiceName = 'postgres' | 'redis' | 'kafka';

/** A Kafka topic ensureServices creates (or grows to `numPartitions`) when missing. */
export interface TopicSpec {
  topic: string;
  numPartitions: number;
}

export interface EnsureServicesOptions {
  postgres?: boolean;
  redis?: boolean;
  kafka?: boolean;
  /** Hide the "already answers" notes; progress (starting, installing) is always shown. */
  quiet?: boolean;
  /** false: only check, start and install nothing (default: FLOWGATE_MANAGE_SERVICES !== 'false'). */
  manage?: boolean;
  /** Where DATABASE_URL, REDIS_URL, KAFKA_BROKERS, FLOWGATE_MANAGE_SERVICES and the topic variables are read (default: process.env). */
  env?: NodeJS.ProcessEnv;
  databaseUrl?: string;
  redisUrl?: string;
  /** `host:port,…` */
  kafkaBrokers?: string;
  /** Default: requestLogTopics(env). */
  topics?: TopicSpec[];
}

export interface EnsuredServices {
  databaseUrl: string;
  redisUrl: string;
  kafkaBrokers: string;
  /** What this call started (stopStartedServices stops it again). */
  started: ServiceName[];
}

/** Makes the requested services answer: used as they are, started when stopped, installed when missing. Rejects with a ServiceError. */
export function ensureServices(options?: EnsureServicesOptions): Promise<EnsuredServices>;

/** Stops what ensureServices started from this checkout; resolves to what it stopped. */
export function stopStartedServices(options?: { quiet?: boolean }): Promise<ServiceName[]>;

/** The path of Debian's Chromium (/usr/bin/chromium), installed with apt when missing. */
export function ensureChromium(options?: { quiet?: boolean }): Promise<string>;

/** The request-log topics (KAFKA_LOG_TOPIC, KAFKA_LOG_DLQ_TOPIC, LOG_INGEST_TOPIC_PARTITIONS). */
export function requestLogTopics(env?: NodeJS.ProcessEnv): TopicSpec[];

/** Error whose message is the one line a caller prints before exiting non-zero. */
export class ServiceError extends Error {
  constructor(message: string);
}

/** The `[services]` lines on stderr. */
export interface ServiceLog {
  /** Progress of something that takes time: always shown. */
  step(message: string): void;
  /** "Already fine" notes: hidden when quiet. */
  info(message: string): void;
}

export function makeLog(quiet?: boolean): ServiceLog;

/** apt-get update + install as root (the caller holds withLock); throws a ServiceError telling what to run otherwise. */
export function aptInstall(packages: string[], log: ServiceLog, quiet?: boolean): void;

/** Runs `fn` holding the machine-wide lock (FLOWGATE_SERVICES_LOCK); a lock whose holder died is taken over. */
export function withLock<T>(fn: () => T | Promise<T>, timeoutMs?: number): Promise<T>;

/** True when `command` is on the PATH. */
export function has(command: string): boolean;

/** True when something accepts a TCP connection at host:port. */
export function probeTcp(host: string, port: number, timeoutMs?: number): Promise<boolean>;

/** True when a Redis server answers a PING (or refuses it: -NOAUTH) at host:port. */
export function pingRedis(host: string, port: number, timeoutMs?: number): Promise<boolean>;

/** True when a broker of `brokers` (`host:port`) answers a metadata request. */
export function kafkaAnswers(brokers: string[]): Promise<boolean>;

/** The local broker's thread counts and intervals (server.properties lines), sized for one small machine. */
export const BROKER_TUNING: readonly string[];
/** The local broker's JVM flags unless KAFKA_JVM_OPTS replaces them. */
export const KAFKA_JVM_OPTS_DEFAULT: string;

/** The Kafka jars in .cache/kafka/libs, fetched with Maven when missing. */
export function ensureKafkaJars(log?: ServiceLog, quiet?: boolean): void;

/** True when `pid` runs (a zombie does not): scripts/lib/liveness.js. */
export function isAlive(pid: number): boolean;

/** The files of this checkout's services. */
export const paths: Readonly<{
  root: string;
  /** .run: pid files and .run/services.json */
  runDir: string;
  /** .cache/kafka: jars, data, config */
  kafkaDir: string;
  kafkaLog: string;
  kafkaPidFile: string;
  /** .run/services.json: what was started from this checkout */
  startedFile: string;
  lockFile: string;
}>;
