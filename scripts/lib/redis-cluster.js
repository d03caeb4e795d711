// A throw-away local Redis Cluster (Debian's redis-server and redis-cli): 3 masters and 3
// replicas on free ports, no persistence, in a temporary directory removed by `stop()`.
// Used by the cluster variants of the tests (per suite) and by hand:
//
//   node scripts/lib/redis-cluster.js      # prints REDIS_CLUSTER_NODES=…; Ctrl-C stops it
//
// Each node keeps its `nodes.conf` (cluster membership and slots) but no data, so a node
// restarted with `restart()` comes back as the same member, empty: exactly "a shard that
// lost its state". The node timeout is 1 s, shorter than the deployment's (deploy/redis/cluster.conf),
// so a drill's failover takes seconds.
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { isAlive } = require('./liveness');
const { setTimeout: sleep } = require('node:timers/promises');

/** The settings every node of a Flowgate Redis Cluster runs with (also docker-compose.redis-cluster.yml). */
const CLUSTER_CONF = path.join(__dirname, '..', '..', 'deploy', 'redis', 'cluster.conf');


function canListen(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free port whose cluster-bus port (+10000) is free too. Both below 32768, where Linux hands
 * out ephemeral ports (the other tests' `freePort`), so nothing else takes them meanwhile.
 */
async function freeClusterPort(taken) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 2768);
    if (taken.has(port) || taken.has(port + 10000)) continue;
    if ((await canListen(port)) && (await canListen(port + 10000))) {
      taken.add(port).add(port + 10000);
      return port;
    }
  }
  throw new Error('redis cluster: no free port pair found');
}

function cli(port, args, { quiet = true } = {}) {
  const result = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', timeout: 20_000 });
  if (result.status !== 0 && !quiet) throw new Error(`redis-cli ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
  return (result.stdout ?? '').trim();
}

function probe(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitFor(check, what, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`redis cluster: timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Parses `CLUSTER NODES` into {id, port, role, masterId, slots, failed}. */
function clusterNodes(port) {
  return cli(port, ['cluster', 'nodes'])
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, address, flags, masterId, , , , , ...slots] = line.split(' ');
      return {
        id,
        port: Number(address.split('@')[0].split(':')[1]),
        role: flags.includes('master') ? 'master' : 'replica',
        masterId: masterId === '-' ? null : masterId,
        failed: flags.includes('fail'),
        slots,
      };
    });
}

const DIR_PREFIX = 'flowgate-redis-cluster-';

/**
 * Clusters whose owner process died without `stop()` (a killed test run): their nodes are
 * killed and their directories removed, so nothing outlives the run that started it for long.
 */
function sweepOrphans() {
  for (const name of fs.readdirSync(os.tmpdir()).filter((entry) => entry.startsWith(DIR_PREFIX))) {
    const dir = path.join(os.tmpdir(), name);
    let owner;
    try {
      owner = JSON.parse(fs.readFileSync(path.join(dir, 'owner.json'), 'utf8'));
    } catch {
      continue; // being created right now, or not ours
    }
    if (isAlive(owner.pid)) continue;
    for (const pid of owner.nodes ?? []) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts the cluster and waits until every node reports `cluster_state:ok`.
 * @param {{ masters?: number, replicasPerMaster?: number, nodeTimeoutMs?: number }} [options]
 */
async function startRedisCluster(options = {}) {
  const masters = options.masters ?? 3;
  const replicas = options.replicasPerMaster ?? 1;
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 1000;
  sweepOrphans();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), DIR_PREFIX));
  const taken = new Set();
  const ports = [];
  for (let i = 0; i < masters * (1 + replicas); i++) ports.push(await freeClusterPort(taken));
  const children = new Map();

  const launch = (port) => {
    const nodeDir = path.join(dir, String(port));
    fs.mkdirSync(nodeDir, { recursive: true });
    // Only the membership file survives a restart: the node comes back as itself, with no data.
    for (const file of fs.readdirSync(nodeDir)) if (file !== 'nodes.conf') fs.rmSync(path.join(nodeDir, file), { force: true });
    const child = spawn(
      'redis-server',
      [
        // The cluster's settings (deploy/redis/cluster.conf), then this node's own.
        CLUSTER_CONF,
        '--port', String(port), '--bind', '127.0.0.1', '--dir', nodeDir, '--protected-mode', 'no',
        '--cluster-node-timeout', String(nodeTimeoutMs),
      ],
      { stdio: 'ignore' },
    );
    children.set(port, child);
    const owner = { pid: process.pid, nodes: [...children.values()].map((c) => c.pid) };
    fs.writeFileSync(path.join(dir, 'owner.json'), JSON.stringify(owner));
    return waitFor(() => probe(port), `redis-server on ${port}`, 10_000);
  };

  const killAll = () => {
    for (const child of children.values()) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killAll);

  try {
    await Promise.all(ports.map(launch));
    const created = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', String(replicas), '--cluster-yes'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}\n${created.stderr}`);
    await waitFor(
      () => ports.every((port) => cli(port, ['cluster', 'info']).includes('cluster_state:ok')),
      'cluster_state:ok on every node',
      30_000,
    );
    // Replicas must have synced before a failover drill can rely on them: every replica's link
    // to its master is up and no initial sync is in progress.
    const synced = (port) => {
      const info = cli(port, ['info', 'replication']);
      return info.includes('role:master') || (info.includes('master_link_status:up') && !info.includes('master_sync_in_progress:1'));
    };
    await waitFor(() => ports.every(synced), 'replicas in sync', 30_000);
  } catch (error) {
    killAll();
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const alive = () => ports.filter((port) => children.get(port)?.exitCode === null && children.get(port)?.signalCode === null);

  return {
    ports,
    /** `host:port,…` — the value of REDIS_CLUSTER_NODES. */
    nodes: ports.map((port) => `127.0.0.1:${port}`).join(','),
    /** The port of the master serving `key`'s slot (as the live nodes see it). */
    masterOf(key) {
      const from = alive()[0];
      const slot = Number(cli(from, ['cluster', 'keyslot', key]));
      const node = clusterNodes(from).find(
        (n) => n.role === 'master' && !n.failed && n.slots.some((range) => {
          const [start, end = start] = range.split('-').map(Number);
          return slot >= start && slot <= end;
        }),
      );
      return node ? node.port : null;
    },
    /** The ports of `masterPort`'s replicas. */
    replicasOf(masterPort) {
      const nodes = clusterNodes(alive()[0]);
      const master = nodes.find((n) => n.port === masterPort);
      return nodes.filter((n) => master && n.masterId === master.id).map((n) => n.port);
    },
    /** kill -9 of one node. */
    async kill(port) {
      const child = children.get(port);
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    /** Starts a killed node again: same cluster identity, empty data. */
    restart: launch,
    /** Waits until every live node reports `cluster_state:ok`. */
    waitHealthy: (timeoutMs = 30_000) =>
      waitFor(() => alive().every((port) => cli(port, ['cluster', 'info']).includes('cluster_state:ok')), 'cluster_state:ok', timeoutMs),
    cli,
    async stop() {
      process.removeListener('exit', killAll);
      await Promise.all(
        [...children.values()].map(
          (child) =>
            new Promise((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', resolve);
              child.kill('SIGKILL');
            }),
        ),
      );
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

module.exports = { startRedisCluster };

if (require.main === module) {
  startRedisCluster().then(
    (cluster) => {
      process.stdout.write(`REDIS_CLUSTER_NODES=${cluster.nodes}\n`);
      const stop = () => cluster.stop().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
    (error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    },
  );
}
