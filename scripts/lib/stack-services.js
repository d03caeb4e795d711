// The processes of the local stack, how to start each one and how to tell it is ready.
'use strict';

const path = require('node:path');
const { nodeFlagsOf } = require('./node-flags');
const { probeTcp } = require('./services');

const root = path.resolve(__dirname, '..', '..');
const APPS = ['control-plane', 'gateway', 'log-ingest', 'worker'];

/** STACK_NODE_FLAGS: extra Node flags for the four apps, e.g. `--cpu-prof --cpu-prof-dir=.cache/prof` (profiles written when the stack stops). */
const extraNodeFlags = (env) => (env.STACK_NODE_FLAGS ?? '').split(' ').filter(Boolean);

function backend(env, name, port, readyPath, nodeFlags = [], extraPorts = {}) {
  const entry = `apps/${name}/src/main.ts`;
  return {
    name,
    entry,
    command: process.execPath,
    args: [...nodeFlags, ...extraNodeFlags(env), path.join(root, 'scripts', 'run-ts.js'), entry],
    port: Number(port),
    /** Other ports the process listens on, by the variable that moves each. */
    extraPorts: Object.fromEntries(Object.entries(extraPorts).map(([variable, value]) => [variable, Number(value)])),
    readyUrl: `http://127.0.0.1:${port}${readyPath}`,
  };
}

/** Every process of the stack, in start order. */
function stackServices(env) {
  return [
    // The internal API (admin key relay) has its own loopback listener; /readyz answers once both listen.
    backend(env, 'control-plane', env.CONTROL_PLANE_PORT, '/readyz', [], { CONTROL_PLANE_INTERNAL_PORT: env.CONTROL_PLANE_INTERNAL_PORT }),
    backend(env, 'gateway', env.GATEWAY_PORT, '/_readyz', nodeFlagsOf('gateway')),
    backend(env, 'log-ingest', env.LOG_INGEST_PORT, '/readyz', nodeFlagsOf('log-ingest')),
    backend(env, 'worker', env.WORKER_PORT, '/readyz'),
    {
      name: 'dashboard',
      entry: 'apps/dashboard/index.html',
      command: process.execPath,
      args: [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), '--port', String(env.DASHBOARD_PORT), '--strictPort'],
      cwd: path.join(root, 'apps', 'dashboard'),
      // vite.config.ts is ESM in a CommonJS package; Vite's bundling loader handles that, and
      // its notice about a future native loader is noise in the stack's output.
      env: { VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
      port: Number(env.DASHBOARD_PORT),
      readyUrl: `http://localhost:${env.DASHBOARD_PORT}/`,
    },
  ];
}

/** True when the service answers its readiness URL with 200. */
async function isReady(service) {
  try {
    const response = await fetch(service.readyUrl, { signal: AbortSignal.timeout(2000), redirect: 'manual' });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** True when something already listens on the service's port (IPv4 or IPv6 loopback). */
async function portTaken(port) {
  return (await probeTcp('127.0.0.1', port, 500)) || (await probeTcp('::1', port, 500));
}

/** The URLs to show once the stack is ready, for the services that run. */
function urlSummary(env, names = APPS.concat('dashboard')) {
  const lines = {
    'control-plane': `  control plane  http://localhost:${env.CONTROL_PLANE_PORT}   (/v1, OpenAPI /docs, /readyz, /metrics)`,
    gateway: `  gateway        ${env.GATEWAY_PUBLIC_URL}   (/_readyz, /_metrics on any host: http://localhost:${env.GATEWAY_PORT}/_metrics)`,
    dashboard: `  dashboard      http://localhost:${env.DASHBOARD_PORT}`,
    'log-ingest': `  log-ingest     http://localhost:${env.LOG_INGEST_PORT}/readyz   (/healthz, /metrics)`,
    worker: `  worker         http://localhost:${env.WORKER_PORT}/readyz   (/healthz, /metrics)`,
  };
  return [
    ...Object.keys(lines).filter((name) => names.includes(name)).map((name) => lines[name]),
    `  PostgreSQL     ${env.DATABASE_URL}`,
    `  Redis          ${env.REDIS_URL}`,
    `  Kafka          ${env.KAFKA_BROKERS}`,
  ].join('\n');
}

module.exports = { APPS, stackServices, isReady, portTaken, urlSummary };
