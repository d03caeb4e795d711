/**
 * deploy/dashboard/serve.js, the production dashboard server: no request may end the process
 * (`/%` used to throw URIError and exit), and no page may be framed by another site.
 * It runs as its own process on a built dashboard of a few files, with a stand-in control plane.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AppProcess, freePort, waitReady } from '@flowgate/testing';

const ROOT = path.resolve(__dirname, '../..');

/** One raw request, path exactly as given (fetch would normalise `/%`). */
function rawGet(port: number, requestPath: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: requestPath, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('production dashboard server (serve.js)', () => {
  let dist: string;
  let port: number;
  let server: AppProcess;
  let controlPlane: http.Server;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'flowgate-serve-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
    controlPlane = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'));
    await new Promise<void>((resolve) => controlPlane.listen(0, '127.0.0.1', resolve));
    port = await freePort();
    const child = spawn(process.execPath, [path.join(ROOT, 'deploy/dashboard/serve.js')], {
      env: { ...process.env, DASHBOARD_PORT: String(port), DASHBOARD_DIST: dist, CONTROL_PLANE_URL: `http://127.0.0.1:${(controlPlane.address() as AddressInfo).port}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    server = {
      name: 'serve.js',
      child,
      output: () => output,
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        return exited;
      },
    };
    await waitReady(server, `http://127.0.0.1:${port}/healthz`);
  });

  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => controlPlane?.close(resolve));
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers 400 to malformed paths and keeps serving', async () => {
    for (const bad of ['/%', '/%E0%A4%A', '/assets/%ZZ', '/a%00b']) {
      const answer = await rawGet(port, bad);
      expect({ bad, status: answer.status, code: JSON.parse(answer.body).code }).toEqual({ bad, status: 400, code: 'invalid_request' });
    }
    expect(server.child.exitCode).toBeNull();
    const page = await rawGet(port, '/projects/1/logs');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect((await rawGet(port, '/v1/projects')).body).toBe('{"items":[]}');
  });

  it('refuses to be framed by another site', async () => {
    for (const url of ['/', '/assets/app-1234.js', '/%']) {
      const answer = await rawGet(port, url);
      expect({ url, frame: answer.headers['x-frame-options'], csp: answer.headers['content-security-policy'] }).toEqual({
        url,
        frame: 'DENY',
        csp: "frame-ancestors 'none'",
      });
    }
  });
});
