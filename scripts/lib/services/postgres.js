// @ts-check
// PostgreSQL: used as it is when it answers; a local cluster that is stopped is started with
// `pg_ctlcluster --skip-systemctl-redirect <version> <name> start`; when PostgreSQL is not
// installed at all, the `postgresql` package is installed with apt (and local TCP trusted).
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const { aptInstall } = require('./apt');
const { DEFAULTS, LOCAL_HOSTS, ServiceError, has, hostPort, manageHint, probeTcp, recordStarted, run, tailOf, telling } = require('./common');
const { withLock } = require('./lock');
const { setTimeout: sleep } = require('node:timers/promises');

/** @typedef {import('./index').ServiceLog} ServiceLog */
/** @typedef {import('./common').EnsureContext} EnsureContext */
/** @typedef {NonNullable<import('./common').StartedRecord['postgres']>} StartedPostgres */

/**
 * A line of `pg_lsclusters`.
 * @typedef {object} Cluster
 * @property {string} version
 * @property {string} name
 * @property {number} port
 * @property {string} status `online`, `down`, …
 * @property {string} owner
 * @property {string} dataDir
 */

/**
 * True when the server accepts connections (not merely TCP: it may be starting or stopping).
 * @param {string} host
 * @param {number} port
 */
async function postgresAnswers(host, port) {
  if (!(await probeTcp(host, port))) return false;
  if (!has('pg_isready')) return true;
  return spawnSync('pg_isready', ['-q', '-h', host, '-p', String(port), '-t', '2'], { stdio: 'ignore' }).status === 0;
}

/** @returns {Cluster[]} */
function listClusters() {
  const result = spawnSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });
  if (result.status !== 0) return [];
  return result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [version = '', name = '', port = '', status = '', owner = '', dataDir = ''] = line.trim().split(/\s+/);
      return { version, name, port: Number(port), status, owner, dataDir };
    });
}

/**
 * After an apt install: let local TCP clients in without a password, as the dev and CI machines do.
 * @param {Cluster} cluster
 * @param {ServiceLog} log
 */
function trustLocalTcp(cluster, log) {
  const hba = `/etc/postgresql/${cluster.version}/${cluster.name}/pg_hba.conf`;
  if (!fs.existsSync(hba)) return;
  const text = fs.readFileSync(hba, 'utf8');
  if (/^host\s+all\s+all\s+127\.0\.0\.1\/32\s+trust/m.test(text)) return;
  log.step(`allowing trust auth for local TCP in ${hba}`);
  fs.writeFileSync(hba, `# added by Flowgate (scripts/lib/services/postgres.js) for local development\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n${text}`);
}

/**
 * Makes PostgreSQL at `url` answer (see the top of this file).
 * @param {string} url DATABASE_URL
 * @param {EnsureContext} context
 * @returns {Promise<void>}
 */
async function ensurePostgres(url, { log, quiet, started, manage }) {
  const { host, port } = hostPort(url, 5432, DEFAULTS.databaseUrl);
  if (await postgresAnswers(host, port)) return log.info(`PostgreSQL answers at ${host}:${port}`);
  if (!manage || !LOCAL_HOSTS.has(host)) throw new ServiceError(`PostgreSQL is not reachable at ${host}:${port} — start it or fix DATABASE_URL${manageHint(manage)}`);

  await withLock(async () => {
    if (await postgresAnswers(host, port)) return;
    let installedNow = false;
    if (!has('pg_lsclusters')) {
      aptInstall(['postgresql'], log, quiet);
      installedNow = true;
    }
    let cluster = listClusters().find((c) => c.port === port);
    if (!cluster) {
      const clusters = listClusters();
      throw new ServiceError(
        `PostgreSQL has no cluster on port ${port} (clusters: ${clusters.map((c) => `${c.version}/${c.name}:${c.port}`).join(', ') || 'none'}) — create one with pg_createcluster or fix DATABASE_URL`,
      );
    }
    if (installedNow) trustLocalTcp(cluster, log);
    cluster = listClusters().find((c) => c.port === port) ?? cluster;
    if (cluster.status !== 'online') {
      log.step(`starting PostgreSQL ${cluster.version}/${cluster.name} on port ${port}`);
      const result = run('pg_ctlcluster', ['--skip-systemctl-redirect', cluster.version, cluster.name, 'start'], { quiet: true });
      const logFile = `/var/log/postgresql/postgresql-${cluster.version}-${cluster.name}.log`;
      if (!result.ok) {
        throw new ServiceError(`PostgreSQL ${cluster.version}/${cluster.name} on port ${port} is stopped and could not be started — ${telling(`${result.output}\n${tailOf(logFile, 20)}`)} (log: ${logFile})`);
      }
      recordStarted('postgres', { version: cluster.version, cluster: cluster.name, port });
      started.push('postgres');
    } else if (installedNow) {
      run('pg_ctlcluster', ['--skip-systemctl-redirect', cluster.version, cluster.name, 'reload'], { quiet: true });
      recordStarted('postgres', { version: cluster.version, cluster: cluster.name, port });
      started.push('postgres');
    }
    const deadline = Date.now() + 60000;
    while (!(await postgresAnswers(host, port))) {
      if (Date.now() > deadline) throw new ServiceError(`PostgreSQL on port ${port} did not become ready within 60 s — see /var/log/postgresql/`);
      await sleep(300);
    }
  });
}

/**
 * Stops the cluster ensurePostgres started (as recorded in .run/services.json); true when it stopped.
 * @param {StartedPostgres} record
 * @param {ServiceLog} log
 */
function stopPostgres({ version, cluster, port }, log) {
  log.step(`stopping the PostgreSQL we started (${version}/${cluster}, port ${port})`);
  return run('pg_ctlcluster', ['--skip-systemctl-redirect', version, cluster, 'stop'], { quiet: true }).ok;
}

module.exports = { ensurePostgres, stopPostgres };
