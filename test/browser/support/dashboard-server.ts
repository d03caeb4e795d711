import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AppProcess, freePort, waitReady } from '@flowgate/testing';

const ROOT = path.resolve(__dirname, '../../..');

/**
 * The production dashboard: `vite build` into a directory of this test file's own (parallel test
 * files never share one), served by deploy/dashboard/serve.js with /v1 forwarded to the control plane.
 * Stopping it removes the build.
 */
export async function startDashboard(controlPlaneUrl: string): Promise<{ url: string; process: AppProcess; dist: string }> {
  const dist = buildDashboard();
  const served = await serveDashboard(dist, controlPlaneUrl);
  const stop = served.process.stop;
  served.process.stop = async () => {
    const code = await stop();
    rmSync(dist, { recursive: true, force: true });
    return code;
  };
  return { ...served, dist };
}

function buildDashboard(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'flowgate-dashboard-'));
  const build = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', 'apps/dashboard', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: ROOT,
    // NODE_ENV=test/development (Jest, the stack's env) would make Vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`vite build failed:\n${build.stdout}${build.stderr}`);
  return dist;
}

/** A built dashboard (`dist`) served in front of a control plane: one build can serve several control planes. */
export async function serveDashboard(dist: string, controlPlaneUrl: string): Promise<{ url: string; process: AppProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'deploy/dashboard/serve.js')], {
    cwd: ROOT,
    env: { ...process.env, DASHBOARD_PORT: String(port), DASHBOARD_DIST: dist, CONTROL_PLANE_URL: controlPlaneUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const app: AppProcess = {
    name: 'dashboard',
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  await waitReady(app, `http://127.0.0.1:${port}/healthz`);
  return { url: `http://localhost:${port}`, process: app };
}
