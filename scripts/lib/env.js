// The environment the local stack, the benchmarks and the test runner hand to Flowgate's
// processes: the process environment, then `.env` at the repository root, then development
// defaults. Secrets for development are generated once per machine (scripts/lib/dev-secrets.js),
// so a restarted stack, or another clone, still decrypts what it encrypted before.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { parseEnv } = require('node:util');
const { devSecrets } = require('./dev-secrets');
const { DEFAULTS } = require('./services');

const root = path.resolve(__dirname, '..', '..');

/** Ports of the stack; each can be moved with its variable. */
const PORT_DEFAULTS = Object.freeze({
  CONTROL_PLANE_PORT: 3000,
  CONTROL_PLANE_INTERNAL_PORT: 3003,
  GATEWAY_PORT: 8080,
  LOG_INGEST_PORT: 3001,
  WORKER_PORT: 3002,
  DASHBOARD_PORT: 5173,
});

/** Thrown for a malformed variable; the message is the one line to print. */
class EnvError extends Error {
  constructor(message) {
    super(message);
    this.name = 'EnvError';
  }
}

function readDotenv() {
  const file = path.join(root, '.env');
  if (!fs.existsSync(file)) return {};
  return parseEnv(fs.readFileSync(file, 'utf8'));
}

function checkUrl(env, name, protocols, example) {
  let ok = false;
  try {
    ok = protocols.includes(new URL(env[name]).protocol);
  } catch {
    ok = false;
  }
  if (!ok) throw new EnvError(`${name}: must be a ${protocols.map((p) => `${p}//`).join(' or ')} URL (e.g. ${example}), got "${env[name]}"`);
}

/** Fails with one line when a variable the scripts rely on is malformed. */
function validate(env) {
  checkUrl(env, 'DATABASE_URL', ['postgresql:', 'postgres:'], DEFAULTS.databaseUrl);
  checkUrl(env, 'REDIS_URL', ['redis:', 'rediss:'], DEFAULTS.redisUrl);
  const brokers = env.KAFKA_BROKERS.split(',').map((b) => b.trim()).filter(Boolean);
  if (brokers.length === 0 || !brokers.every((b) => /^[^:\s]+:\d{1,5}$/.test(b))) {
    throw new EnvError(`KAFKA_BROKERS: must be a comma-separated list of host:port (e.g. ${DEFAULTS.kafkaBrokers}), got "${env.KAFKA_BROKERS}"`);
  }
  for (const name of Object.keys(PORT_DEFAULTS)) {
    const port = Number(env[name]);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new EnvError(`${name}: must be a port number, got "${env[name]}"`);
  }
}

/**
 * The environment for the stack's processes. The process environment wins over `.env`,
 * which wins over the defaults. `mode` 'development' adds generated dev secrets.
 */
function stackEnv({ nodeEnv = 'development' } = {}) {
  const env = { ...readDotenv(), ...process.env };
  for (const [name, port] of Object.entries(PORT_DEFAULTS)) env[name] ??= String(port);
  env.NODE_ENV ??= nodeEnv;
  env.DATABASE_URL ??= DEFAULTS.databaseUrl;
  env.REDIS_URL ??= DEFAULTS.redisUrl;
  env.KAFKA_BROKERS ??= DEFAULTS.kafkaBrokers;
  env.GATEWAY_DOMAIN ??= 'localhost';
  env.GATEWAY_PUBLIC_URL ??= `http://{subdomain}.${env.GATEWAY_DOMAIN}:${env.GATEWAY_PORT}`;
  env.CONTROL_PLANE_URL ??= `http://localhost:${env.CONTROL_PLANE_PORT}`;
  env.CONTROL_PLANE_INTERNAL_HOST ??= '127.0.0.1';
  env.CONTROL_PLANE_INTERNAL_URL ??= `http://127.0.0.1:${env.CONTROL_PLANE_INTERNAL_PORT}`;
  if (env.NODE_ENV !== 'production' && (!env.FLOWGATE_ENCRYPTION_KEY || !env.FLOWGATE_SERVICE_TOKEN)) {
    const secrets = devSecrets(env);
    env.FLOWGATE_ENCRYPTION_KEY ??= secrets.encryptionKey;
    env.FLOWGATE_SERVICE_TOKEN ??= secrets.serviceToken;
  }
  // Nx must not start a daemon or reach for its cloud from our child processes.
  env.NX_DAEMON ??= 'false';
  env.NX_NO_CLOUD ??= 'true';
  validate(env);
  return env;
}

module.exports = { stackEnv, EnvError, PORT_DEFAULTS, root };
