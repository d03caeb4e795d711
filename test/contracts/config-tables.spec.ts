/**
 * The configuration tables of the README and docs/ are generated from the apps' zod schemas
 * (scripts/docs-config.ts); this fails while one is stale. Fix: `npm run docs:config`.
 */
import { configDocs, withConfigTables } from '../../scripts/docs-config';

describe('configuration tables', () => {
  it.each(configDocs().map((doc) => [doc.file, doc] as const))('%s matches the config schemas (npm run docs:config)', (_file, doc) => {
    expect(doc.actual).toBe(doc.expected);
  });

  it('the README lists every app variable with the apps that read it', () => {
    const readme = configDocs().find((doc) => doc.file === 'README.md')!.expected;
    expect(readme).toMatch(/\| `GATEWAY_LOG_COMPRESSION` \| `gzip` \| gateway \| /);
    expect(readme).toMatch(/\| `DATA_DATABASE_URL` \| database `flowgate_data` on the server of `DATABASE_URL` \| control-plane, gateway \| /);
    expect(readme).toMatch(/\| `LOG_INGEST_NICE` \| `10` \| log-ingest \| /);
  });

  it('regenerates a table between its markers whatever it held, and leaves the rest of the page alone', () => {
    const page = 'Before.\n\n<!-- config-table: log-ingest only=LOG_INGEST_NICE -->\n| stale | row |\n<!-- /config-table -->\n\nAfter.\n';
    const generated = withConfigTables(page);
    expect(generated.startsWith('Before.\n\n<!-- config-table: log-ingest only=LOG_INGEST_NICE -->\n| variable | default | meaning |\n|---|---|---|\n| `LOG_INGEST_NICE` | `10` | ')).toBe(true);
    expect(generated.endsWith(' |\n<!-- /config-table -->\n\nAfter.\n')).toBe(true);
    expect(generated).not.toContain('stale');
  });

  it('refuses a marker naming no known source', () => {
    expect(() => withConfigTables('<!-- config-table: nowhere -->\n<!-- /config-table -->')).toThrow('unknown source "nowhere"');
  });
});
