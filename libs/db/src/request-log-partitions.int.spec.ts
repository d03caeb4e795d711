import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { migrate } from './migrate';
import { createPrismaClient } from './prisma-client';
import {
  addDays,
  dropRequestLogPartitionsOlderThan,
  ensureRequestLogPartitions,
  maintainRequestLogPartitions,
  requestLogPartitionName,
} from './request-log-partitions';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@flowgate/testing';

// Days far from the partitions the migration creates around "now", so the test owns them.
const D1 = '2031-03-01';

describe('request_logs partitions', () => {
  let database: ThrowawayDatabase;
  let client: Client;

  const insert = async (time: string) => {
    const id = randomUUID();
    await client.query(
      `INSERT INTO request_logs (id, time, project_id, path, method, status, duration_ms) VALUES ($1, $2, $3, '/x', 'GET', 200, 1.5)`,
      [id, time, randomUUID()],
    );
    return id;
  };
  const partitionOf = async (id: string) =>
    (await client.query<{ partition: string }>('SELECT tableoid::regclass::text AS partition FROM request_logs WHERE id = $1', [id])).rows[0]
      ?.partition;
  const partitions = async () =>
    (
      await client.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'request_logs'::regclass ORDER BY 1`,
      )
    ).rows.map((r) => r.name);

  const indexesOf = async (table: string) =>
    (
      await client.query<{ indexdef: string }>('SELECT indexdef FROM pg_indexes WHERE tablename = $1', [table])
    ).rows
      .map((r) => r.indexdef.replace(/^CREATE (UNIQUE )?INDEX \S+ ON \S+ /, '$1'))
      .sort();
  const PARENT_INDEXES = [
    'UNIQUE USING btree (project_id, "time", id)',
    'USING btree (project_id, path, "time", id)',
    'USING btree (project_id, status, "time", id) WHERE (status <> 200)',
  ];

  beforeAll(async () => {
    database = await createThrowawayDatabase('flowgate_partitions');
    await migrate(database.url, { quiet: true });
    client = new Client({ connectionString: database.url });
    await client.connect();
    // Bounds are UTC days whatever the session's time zone.
    await client.query("SET TIME ZONE 'Asia/Tokyo'");
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it('the migration created partitions around today and a default partition', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const existing = await partitions();
    expect(existing).toContain('request_logs_default');
    expect(existing).toContain(requestLogPartitionName(today));
    expect(existing).toContain(requestLogPartitionName(addDays(today, 7)));
  });

  it('creates daily partitions once, with the parent’s indexes', async () => {
    expect(await ensureRequestLogPartitions(client, D1, 3)).toEqual([
      'request_logs_p20310301',
      'request_logs_p20310302',
      'request_logs_p20310303',
    ]);
    expect(await ensureRequestLogPartitions(client, D1, 3)).toEqual([]);
    expect(await indexesOf('request_logs_p20310301')).toEqual(PARENT_INDEXES);
  });

  it('routes rows to the partition of their UTC day, and days without one to the default partition', async () => {
    expect(await partitionOf(await insert('2031-03-01T00:00:00.000Z'))).toBe('request_logs_p20310301');
    expect(await partitionOf(await insert('2031-03-01T23:59:59.999Z'))).toBe('request_logs_p20310301');
    expect(await partitionOf(await insert('2031-03-02T08:30:00+09:00'))).toBe('request_logs_p20310301'); // 23:30 UTC the day before
    expect(await partitionOf(await insert('2031-03-02T00:00:00.000Z'))).toBe('request_logs_p20310302');
    expect(await partitionOf(await insert('2031-03-03T12:00:00.000Z'))).toBe('request_logs_p20310303');
    expect(await partitionOf(await insert('2031-03-10T12:00:00.000Z'))).toBe('request_logs_default');
  });

  it('moves rows out of the default partition when their day’s partition is created later', async () => {
    const early = await insert('2031-03-11T00:00:00.000Z');
    const late = await insert('2031-03-11T23:59:59.999Z');
    const nextDay = await insert('2031-03-12T00:00:00.000Z');
    expect(await partitionOf(early)).toBe('request_logs_default');

    expect(await ensureRequestLogPartitions(client, '2031-03-11', 1)).toEqual(['request_logs_p20310311']);
    expect(await partitionOf(early)).toBe('request_logs_p20310311');
    expect(await partitionOf(late)).toBe('request_logs_p20310311');
    expect(await partitionOf(nextDay)).toBe('request_logs_default');
    expect(await indexesOf('request_logs_p20310311')).toEqual(PARENT_INDEXES);
    // A duplicate of a moved row is still refused: the primary key holds across the move.
    await expect(client.query('INSERT INTO request_logs SELECT * FROM request_logs WHERE id = $1', [early])).rejects.toThrow(
      /duplicate key/,
    );
  });

  it('works through a Prisma client as well', async () => {
    const prisma = createPrismaClient(database.url, { max: 1 });
    try {
      expect(await ensureRequestLogPartitions(prisma, new Date('2031-04-01T22:00:00Z'), 2)).toEqual([
        'request_logs_p20310401',
        'request_logs_p20310402',
      ]);
      expect(await dropRequestLogPartitionsOlderThan(prisma, '2000-01-01')).toEqual([]);
    } finally {
      await prisma.$disconnect();
    }
  });

  it('drops only the partitions of days before the cutoff, never the default one, and trims the default partition', async () => {
    const ancient = await insert('2020-01-01T00:00:00.000Z'); // in the default partition
    const kept = await insert('2031-03-03T00:00:00.000Z');
    const before = await partitions();
    const older = before.filter((name) => /^request_logs_p\d{8}$/.test(name) && name < 'request_logs_p20310303');
    expect(older).toEqual(expect.arrayContaining(['request_logs_p20310301', 'request_logs_p20310302']));

    expect(await dropRequestLogPartitionsOlderThan(client, '2031-03-03')).toEqual(older);
    const after = await partitions();
    expect(after).toEqual(before.filter((name) => !older.includes(name)));
    expect(after).toEqual(expect.arrayContaining(['request_logs_default', 'request_logs_p20310303', 'request_logs_p20310311']));
    expect(await partitionOf(ancient)).toBeUndefined();
    expect(await partitionOf(kept)).toBe('request_logs_p20310303');
    expect(await partitionOf(await insert('2031-03-10T13:00:00.000Z'))).toBe('request_logs_default');
    expect(await dropRequestLogPartitionsOlderThan(client, '2031-03-03')).toEqual([]);
  });

  it('maintains a window: yesterday to days ahead, retention counted in days including today', async () => {
    const result = await maintainRequestLogPartitions(client, { today: '2031-05-10', retentionDays: 3, daysAhead: 2 });
    expect(result.created).toEqual(['request_logs_p20310509', 'request_logs_p20310510', 'request_logs_p20310511', 'request_logs_p20310512']);
    // Keeps 05-08, 05-09, 05-10: everything before 05-08 goes, including the partitions made above.
    expect(result.dropped).toEqual(expect.arrayContaining(['request_logs_p20310303', 'request_logs_p20310311', 'request_logs_p20310402']));
    expect((await partitions()).filter((name) => name !== 'request_logs_default')).toEqual([
      'request_logs_p20310509',
      'request_logs_p20310510',
      'request_logs_p20310511',
      'request_logs_p20310512',
    ]);
  });

  it('refuses nonsense arguments', async () => {
    expect(() => ensureRequestLogPartitions(client, '2031-3-1', 1)).toThrow(RangeError);
    expect(() => ensureRequestLogPartitions(client, D1, -1)).toThrow(RangeError);
    await expect(client.query('SELECT flowgate_ensure_request_log_partitions($1::date, -1)', [D1])).rejects.toThrow(/days >= 0/);
  });
});
