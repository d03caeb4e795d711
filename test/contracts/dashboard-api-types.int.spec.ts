// The dashboard's API types are generated from the control plane's OpenAPI document. This test
// regenerates them from the real application and fails when the committed file differs, so a
// contract change breaks `npm test` (and, once regenerated, the dashboard's typecheck where it
// relied on the old shape) instead of the user. `npm run api:types` rewrites the file.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startTestApp, type TestApp } from '../../apps/control-plane/src/testing/test-app';

const { openApiToTypes } = require('../../scripts/lib/openapi-types') as { openApiToTypes: (document: unknown) => string };

const GENERATED = resolve(__dirname, '../../apps/dashboard/src/api/generated/openapi.ts');

describe("dashboard API types match the control plane's OpenAPI document", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('has no nullable scalar published as an array (live_url is string | null)', async () => {
    const document = (await t.http().get('/docs-json').expect(200)).body;
    expect(document.components.schemas.EndpointDto_Output.properties.live_url).toMatchObject({ type: 'string', nullable: true });
  });

  it('is what the generator makes of /docs-json today', async () => {
    const document = (await t.http().get('/docs-json').expect(200)).body;
    const expected = openApiToTypes(document);
    if (process.env.UPDATE_API_TYPES === '1') writeFileSync(GENERATED, expected);
    const committed = readFileSync(GENERATED, 'utf8');
    if (committed !== expected) {
      throw new Error(
        'apps/dashboard/src/api/generated/openapi.ts is out of date with the control plane: run `npm run api:types`, then fix what the dashboard typecheck reports.',
      );
    }
  });
});
