// Jest global setup: make sure the real services run (starting what is missing, exactly as
// `npm start` does), then give the test run its own migrated database. The database name
// carries a hash of the migrations, so a changed migration gets a fresh database.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

function migrationsHash() {
  const dir = path.join(root, 'prisma', 'migrations');
  const hash = crypto.createHash('sha256');
  if (fs.existsSync(dir)) {
    for (const name of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, name, 'migration.sql');
      if (fs.existsSync(file)) hash.update(name).update(fs.readFileSync(file));
    }
  }
  return hash.digest('hex').slice(0, 10);
}

module.exports = async function globalSetup() {
  const { ensureServices, DEFAULTS } = require('../scripts/lib/services');
  // A Redis database of the tests' own (TEST_REDIS_URL, default database 12 of the local
  // Redis): the suites' sign-ups and failed logins from 127.0.0.1 would otherwise count
  // against the developer's stack (429 on the README's sign-up for an hour), and the
  // control plane's lost-state tests reset keys (`fg:epoch`) that a running stack reads.
  const redisUrl = process.env.TEST_REDIS_URL ?? `${DEFAULTS.redisUrl}/12`;
  await ensureServices({ postgres: true, redis: true, kafka: true, quiet: true, redisUrl });

  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? DEFAULTS.databaseAdminUrl;
  const database = `flowgate_test_${migrationsHash()}`;
  const { Client } = require('pg');
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`).catch((error) => {
      if (error.code !== '42P04') throw error; // created meanwhile by a parallel run
    });
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;

  Object.assign(process.env, {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    DATABASE_URL: url.toString(),
    // The tests' own data database (data tables' rows); the control plane creates and sets it up.
    DATA_DATABASE_URL: process.env.TEST_DATA_DATABASE_URL ?? Object.assign(new URL(url.toString()), { pathname: '/flowgate_test_data' }).toString(),
    REDIS_URL: redisUrl,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? DEFAULTS.kafkaBrokers,
    FLOWGATE_ENCRYPTION_KEY: process.env.FLOWGATE_ENCRYPTION_KEY ?? '0'.repeat(64),
    FLOWGATE_SERVICE_TOKEN: process.env.FLOWGATE_SERVICE_TOKEN ?? 'test-service-token-0123456789abcdef',
    FLOWGATE_EGRESS_ALLOW_CIDRS: process.env.FLOWGATE_EGRESS_ALLOW_CIDRS ?? '',
    // The suites make hundreds of accounts from 127.0.0.1 (the stacks they start read it too);
    // the sign-up throttle's own test sets its limit on the app it starts.
    SIGNUP_PER_ADDRESS_PER_HOUR: process.env.SIGNUP_PER_ADDRESS_PER_HOUR ?? '1000000',
    // Likewise wrong API keys: every suite's gateways count them under 127.0.0.1 in the shared
    // Redis; the throttle's own test sets its limit on the gateway it starts.
    KEY_FAILURES_PER_MINUTE: process.env.KEY_FAILURES_PER_MINUTE ?? '1000000',
  });

  require('../scripts/register-ts');
  const { migrate } = require('../libs/db/src/migrate');
  await migrate(process.env.DATABASE_URL, { quiet: true });
};
