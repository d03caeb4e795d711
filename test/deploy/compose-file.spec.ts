/**
 * docker-compose.yml, read as Compose reads it (anchors merged, `${VAR:-default}` with its
 * default): every app service runs the image its Dockerfile builds, under the name
 * `npm run test:images` builds and runs, and its environment passes the app's own configuration
 * loader with nothing left to a 127.0.0.1 default. (No Docker engine here: `npm run test:images`
 * also has podman-compose read the file; see docs/operations.md "Docker Compose".)
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { loadControlPlaneConfig } from '../../apps/control-plane/src/config/control-plane.config';
import { loadGatewayConfig } from '../../apps/gateway/src/config';
import { loadLogIngestConfig } from '../../apps/log-ingest/src/config';
import { loadWorkerConfig } from '../../apps/worker/src/config';

const root = path.resolve(__dirname, '../..');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string | number>;
  command?: string[];
}

const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };

/** `${NAME:-default}` → the default (the environment of the test run is not the user's). */
const interpolate = (value: string | number): string => String(value).replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, '$1');
const environmentOf = (service: ComposeService): Record<string, string> =>
  Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(value)]));

const LOADERS: Record<string, (env: NodeJS.ProcessEnv) => unknown> = {
  'control-plane': loadControlPlaneConfig,
  gateway: loadGatewayConfig,
  'log-ingest': loadLogIngestConfig,
  worker: loadWorkerConfig,
};

describe('docker-compose.yml', () => {
  it.each(['control-plane', 'gateway', 'log-ingest', 'worker', 'dashboard'])('runs %s from its Dockerfile under the name npm run test:images uses', (app) => {
    const service = compose.services[app];
    expect(service.image).toBe(`flowgate/${app}:local`);
    expect(service.build).toEqual({ context: '.', dockerfile: `deploy/Dockerfile.${app}` });
    expect(existsSync(path.join(root, service.build!.dockerfile))).toBe(true);
  });

  it.each(Object.keys(LOADERS))('gives %s a configuration it accepts, pointing at the compose services', (app) => {
    const env = environmentOf(compose.services[app]);
    expect(() => LOADERS[app](env)).not.toThrow();
    const addresses = ['DATABASE_URL', 'DATA_DATABASE_URL', 'REDIS_URL', 'KAFKA_BROKERS', 'CONTROL_PLANE_INTERNAL_URL'].filter((name) => env[name] !== undefined);
    expect(addresses.length).toBeGreaterThan(0);
    for (const name of addresses) expect(`${name}=${env[name]}`).not.toMatch(/127\.0\.0\.1|localhost/);
    expect(env.NODE_ENV).toBe('production');
  });

  it('migrates with the compiled CLI the control-plane image carries, before the apps start', () => {
    const migrate = compose.services.migrate;
    expect(migrate.image).toBe('flowgate/control-plane:local');
    expect(migrate.command).toEqual(['node', 'dist/libs/db/src/migrate.cli.js']);
    expect(existsSync(path.join(root, 'libs/db/src/migrate.cli.ts'))).toBe(true);
    expect(readFileSync(path.join(root, 'deploy/Dockerfile.control-plane'), 'utf8')).toContain('pack-app.js control-plane');
    for (const app of Object.keys(LOADERS)) {
      expect((compose.services[app] as { depends_on?: Record<string, { condition: string }> }).depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    }
  });
});
