/**
 * The dashboard's Vite dev server (`npm start` / `npm run up`) must serve the SPA and nothing
 * else of the repository: before `server.fs` was set, `/@fs/<repo>/.cache/dev-secrets.json`
 * handed out the stack's encryption key and service token; the backend's sources
 * (libs/db, libs/platform, libs/integrations) are refused too, and no page may be framed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, waitUntil } from '@flowgate/testing';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '../..');
// A stand-in beside the real `.cache/dev-secrets.json` (never written here: a running stack reads it).
const planted = `.cache/test-secret-${randomBytes(4).toString('hex')}.json`;

describe('dashboard dev server: only what the SPA needs', () => {
  let vite: ChildProcess;
  let base: string;
  let output = '';

  beforeAll(async () => {
    mkdirSync(path.join(ROOT, '.cache'), { recursive: true });
    writeFileSync(path.join(ROOT, planted), '{"encryptionKey":"planted-by-the-test"}\n');
    const port = await freePort();
    base = `http://localhost:${port}`;
    vite = spawn(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), '--port', String(port), '--strictPort'], {
      cwd: path.join(ROOT, 'apps/dashboard'),
      env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    vite.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    vite.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitUntil(async () => {
      if (vite.exitCode !== null) throw new Error(`vite exited: ${output}`);
      return (await fetch(base).then((res) => res.status).catch(() => 0)) === 200;
    }, (ready) => ready, `the Vite dev server on ${base}`, { timeoutMs: 60_000 });
  });

  afterAll(() => {
    vite?.kill('SIGTERM');
    rmSync(path.join(ROOT, planted), { force: true });
  });

  const status = (url: string) => fetch(`${base}${url}`).then(async (res) => ({ status: res.status, body: await res.text() }));

  it('refuses the stack secrets and other repository files by absolute path', async () => {
    // Files that exist here (a git worktree has no .git folder; a fresh clone has no dev secrets yet):
    // a missing file would get the SPA's index.html, which says nothing about the deny list.
    const present = ['.cache/dev-secrets.json', '.git/config'].filter((file) => existsSync(path.join(ROOT, file)));
    const backend = ['apps/control-plane/src/main.ts', 'apps/gateway/src/main.ts', 'libs/db/src/index.ts', 'libs/platform/src/index.ts', 'libs/integrations/src/index.ts'];
    for (const file of [planted, ...present, 'package.json', ...backend]) {
      for (const query of ['', '?raw', '?import', '?raw??', '?import&raw??', '?url', '?inline', '?worker_file&type=module']) {
        const answer = await status(`/@fs${ROOT}/${file}${query}`);
        expect({ file, query, status: answer.status }).toEqual({ file, query, status: 403 });
        expect(answer.body).not.toContain('encryptionKey');
      }
    }
  });

  it('refuses to be framed by another site (X-Frame-Options, CSP frame-ancestors)', async () => {
    for (const url of ['/', '/src/main.tsx', '/projects/x/logs']) {
      const answer = await fetch(`${base}${url}`);
      expect({ url, frame: answer.headers.get('x-frame-options'), csp: answer.headers.get('content-security-policy') }).toEqual({
        url,
        frame: 'DENY',
        csp: "frame-ancestors 'none'",
      });
    }
  });

  it('still serves the app, the libraries it imports and its packages', async () => {
    const page = await status('/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
    for (const file of ['apps/dashboard/src/main.tsx', 'libs/contracts/src/index.ts', 'libs/flow-engine/src/index.ts', 'node_modules/react/index.js']) {
      expect({ file, status: (await status(`/@fs${ROOT}/${file}`)).status }).toEqual({ file, status: 200 });
    }
    expect((await status('/src/main.tsx')).status).toBe(200);
  });
});
