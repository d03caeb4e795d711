// The port factory must not load the adapters (jimp, the Anthropic SDK, BullMQ, SendGrid: ~50 MB
// of RSS), nor `pg` and the CSV modules of the data tables, until a flow needs them: the gateway
// imports it at start-up for every project.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');

/** Without the adapters' own variables: when one is set they load at start-up, to validate it. */
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(FLOWGATE_EGRESS_|FLOWGATE_IMAGE_|FLOWGATE_SENDGRID_|ANTHROPIC_|EMAIL_QUEUE_|BULLMQ_)/.test(name)));

function loadedAfter(script: string): string[] {
  const output = execFileSync(process.execPath, ['-r', './scripts/register-ts.js', '-e', script], { cwd: ROOT, encoding: 'utf8', env });
  return JSON.parse(output.trim().split('\n').pop()!) as string[];
}

const HEAVY = `['jimp', '@anthropic-ai/sdk', 'bullmq', '@sendgrid/mail', 'pg', 'csv-parse', 'csv-stringify'].filter((name) => Object.keys(require.cache).some((file) => file.includes('/node_modules/' + name + '/')))`;

describe('@flowgate/integrations/flow-ports', () => {
  it('loads no adapter when imported, and the project ports of a project without integrations load none either', () => {
    const script = `
      const { buildFlowPorts } = require('./libs/integrations/src/flow-ports');
      const { createLogger, SecretBox } = require('./libs/platform/src');
      const settings = { publicUrlTemplate: 'http://{subdomain}.localhost', redisTarget: { url: 'redis://127.0.0.1:6379', clusterNodes: null }, workerThreads: 1, workerQueue: 1, workerTaskMs: 5000 };
      const deps = { settings, redis: {}, secrets: new SecretBox('0'.repeat(64)), logger: createLogger('t', 'silent') };
      buildFlowPorts({ id: 'p', subdomain: 's', integrations: { text_generation: null, email: null } }, deps);
      console.log(JSON.stringify(${HEAVY}));`;
    expect(loadedAfter(script)).toEqual([]);
  });

  it('loads only the egress guard for the first HTTP Request, none of the adapters', () => {
    const script = `
      const { buildFlowPorts } = require('./libs/integrations/src/flow-ports');
      const { createLogger, SecretBox } = require('./libs/platform/src');
      const settings = { publicUrlTemplate: 'http://{subdomain}.localhost', redisTarget: { url: 'redis://127.0.0.1:6379', clusterNodes: null }, workerThreads: 1, workerQueue: 1, workerTaskMs: 5000 };
      const deps = { settings, redis: {}, secrets: new SecretBox('0'.repeat(64)), logger: createLogger('t', 'silent') };
      const ports = buildFlowPorts({ id: 'p', subdomain: 's', integrations: { text_generation: null, email: null } }, deps);
      const aborted = AbortSignal.abort();
      ports.http.request({ method: 'GET', url: 'http://127.0.0.1:9/', headers: {}, body: null }, aborted).catch(() => undefined).finally(() => {
        const egress = Object.keys(require.cache).some((file) => file.includes('/egress/http-port'));
        console.log(JSON.stringify([...${HEAVY}, egress ? 'egress' : 'no egress']));
      });`;
    expect(loadedAfter(script)).toEqual(['egress']);
  });

  it('loads none of the adapters for a regular expression sent to the worker pool, nor to serve a stored image', () => {
    const script = `
      const { buildFlowPorts, loadImageServing } = require('./libs/integrations/src/flow-ports');
      const { createLogger, SecretBox } = require('./libs/platform/src');
      const settings = { publicUrlTemplate: 'http://{subdomain}.localhost', redisTarget: { url: 'redis://127.0.0.1:6379', clusterNodes: null }, workerThreads: 1, workerQueue: 1, workerTaskMs: 5000 };
      const deps = { settings, redis: {}, secrets: new SecretBox('0'.repeat(64)), logger: createLogger('t', 'silent') };
      const ports = buildFlowPorts({ id: 'p', subdomain: 's', integrations: { text_generation: null, email: null } }, deps);
      ports.regex.match({ pattern: 'a', flags: '', input: 'a', maxResultChars: 100 }, AbortSignal.abort()).catch(() => undefined).finally(() => {
        const { serveStoredImage, RedisImageStore } = loadImageServing();
        const pool = Object.keys(require.cache).some((file) => file.includes('/node_modules/piscina/'));
        console.log(JSON.stringify([...${HEAVY}, pool && typeof serveStoredImage === 'function' && typeof RedisImageStore === 'function' ? 'pool, images' : 'missing']));
        process.exit(0);
      });`;
    expect(loadedAfter(script)).toEqual(['pool, images']);
  });

  it('loads them on first use (a text-generation integration)', () => {
    const script = `
      const { buildFlowPorts } = require('./libs/integrations/src/flow-ports');
      const { createLogger, SecretBox } = require('./libs/platform/src');
      const secrets = new SecretBox('0'.repeat(64));
      const settings = { publicUrlTemplate: 'http://{subdomain}.localhost', redisTarget: { url: 'redis://127.0.0.1:6379', clusterNodes: null }, workerThreads: 1, workerQueue: 1, workerTaskMs: 5000 };
      const deps = { settings, redis: {}, secrets, logger: createLogger('t', 'silent') };
      const text_generation = { provider: 'anthropic', api_key_encrypted: secrets.encrypt('sk'), default_model: null };
      buildFlowPorts({ id: 'p', subdomain: 's', integrations: { text_generation, email: null } }, deps);
      console.log(JSON.stringify(${HEAVY}));`;
    expect(loadedAfter(script)).toContain('@anthropic-ai/sdk');
  });
});

describe('@flowgate/integrations/config', () => {
  it("validates the integrations' variables without loading an adapter (the control plane reads it at boot)", () => {
    const script = `
      const { integrationsConfigSchema, DEFAULT_CLAUDE_MODEL } = require('./libs/integrations/src/config');
      const parsed = integrationsConfigSchema.safeParse({ FLOWGATE_EGRESS_ALLOW_CIDRS: 'not a range' });
      console.log(JSON.stringify([...${HEAVY}, parsed.success ? 'accepted' : 'refused', DEFAULT_CLAUDE_MODEL.length > 0 ? 'model' : 'no model']));`;
    expect(loadedAfter(script)).toEqual(['refused', 'model']);
  });
});
