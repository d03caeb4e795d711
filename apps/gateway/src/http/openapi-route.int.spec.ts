/**
 * `/_openapi.json` on a real gateway and Redis: read once per publication and served from
 * memory with an ETag (a 26 MB document read from Redis on every fetch once stalled the
 * other tenants). What is asserted is what a client sees: the document, its tag, 304s, and
 * which copy is served after which change.
 */
import type { PublishedProject } from '@flowgate/contracts';
import { Redis } from 'ioredis';
import type { Gateway } from '../gateway';
import { startGateway } from '../testing/gateway-harness';
import { call, type CallResult, publishedRoute, respond, TestPublisher, waitFor } from '@flowgate/testing';

jest.setTimeout(60_000);

const documentTitled = (title: string) => ({ openapi: '3.1.0', info: { title, version: '1' }, paths: {} });

describe('the OpenAPI route: served from memory with an ETag', () => {
  let redis: Redis;
  let publisher: TestPublisher;
  let gateway: Gateway;
  let project: PublishedProject;

  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    publisher = new TestPublisher(redis);
    project = publisher.newProject([publishedRoute({ path: '/ping', blocks: [respond({ pong: true })] })]);
    await publisher.publish(project);
    await publisher.describe(project, documentTitled('first'));
    gateway = await startGateway();
  });

  afterAll(async () => {
    await gateway?.close();
    await publisher.cleanup();
    redis.disconnect();
  });

  const fetchDocument = (headers: Record<string, string> = {}, method = 'GET'): Promise<CallResult> =>
    call(gateway.url, `${project.subdomain}.localhost`, '/_openapi.json', { method, headers });
  const titleOf = (answer: CallResult) => (answer.json as { info: { title: string } }).info.title;

  it('answers the document with an ETag, and 304 without a body to If-None-Match with it', async () => {
    const first = await fetchDocument();
    expect(first.status).toBe(200);
    expect(titleOf(first)).toBe('first');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const again = await fetchDocument({ 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await fetchDocument({ 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    expect((await fetchDocument({ 'if-none-match': '"other"' })).status).toBe(200);
    const head = await fetchDocument({}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(first.text));
  });

  it('serves the copy read for the publication, without reading Redis again, until the description changes', async () => {
    const before = await fetchDocument();
    // Written without an announcement: a gateway that read Redis per fetch would serve it.
    await publisher.describe(project, documentTitled('unannounced'), { notify: false });
    expect(titleOf(await fetchDocument())).toBe(titleOf(before));
    // A rename: the control plane announces the new description.
    await publisher.describe(project, documentTitled('renamed'));
    const renamed = await waitFor(async () => {
      const answer = await fetchDocument();
      return titleOf(answer) === 'renamed' && answer;
    }, 'the renamed description');
    expect(renamed.headers.etag).not.toBe(before.headers.etag);
    expect((await fetchDocument({ 'if-none-match': before.headers.etag as string })).status).toBe(200);
  });

  it('reads the document again for a new publication', async () => {
    await publisher.describe(project, documentTitled('deployed'), { notify: false });
    project = { ...project, revision: project.revision + 1 };
    await publisher.publish(project);
    await waitFor(async () => titleOf(await fetchDocument()) === 'deployed', 'the description of the new publication');
  });

  it("paces a project's full answers: a burst of fetches of a large document waits its turns, and past a second's wait is refused with 429", async () => {
    // 8 MB: a quarter of the project's 32 MB a second. Twelve fetches at once book three seconds.
    const large = publisher.newProject([publishedRoute({ path: '/ping', blocks: [respond({ pong: true })] })]);
    await publisher.publish(large);
    const document = { ...documentTitled('large'), info: { title: 'large', version: '1', description: 'x'.repeat(8 * 1024 * 1024) } };
    await publisher.describe(large, document);
    const fetchLarge = (): Promise<CallResult> => call(gateway.url, `${large.subdomain}.localhost`, '/_openapi.json');
    const answers = await Promise.all(Array.from({ length: 12 }, fetchLarge));
    const served = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(served.length + refused.length).toBe(12);
    expect(served.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of served) expect(titleOf(answer)).toBe('large');
    for (const answer of refused) {
      expect(answer.json).toMatchObject({ success: false, code: 'rate_limited' });
      expect(answer.headers['retry-after']).toBe('1');
    }
    // Another project's description is not held up by it.
    expect((await fetchDocument()).status).toBe(200);
  });
});
