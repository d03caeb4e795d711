import { randomBytes } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type PublishedProject, projectKey } from '@flowgate/contracts';
import { PrismaClient } from '@flowgate/db';
import { createRedisClient, type RedisClient } from '@flowgate/platform';
import request from 'supertest';
import { createControlPlaneApp } from '../app.factory';
import { type ControlPlaneConfig, loadControlPlaneConfig } from '../config/control-plane.config';
import { internalRequestListener } from '../internal/internal-listener';
import { PublicationService } from '../publication/publication.service';

/**
 * The real control plane in-process (test/global-setup.js provides DATABASE_URL, REDIS_URL and
 * the secrets), with helpers that create uniquely named accounts and projects and remove them
 * (and their Redis records) afterwards.
 */
export interface TestApp {
  app: NestExpressApplication;
  config: ControlPlaneConfig;
  http: () => ReturnType<typeof request>;
  /** The internal listener (the gateway's relay target), as main.ts serves it on CONTROL_PLANE_INTERNAL_PORT. */
  internal: () => ReturnType<typeof request>;
  prisma: PrismaClient;
  /** The Redis the app publishes into (a cluster client when the config names REDIS_CLUSTER_NODES). */
  redis: RedisClient;
  signup(): Promise<TestAccount>;
  createProject(account: TestAccount, name?: string): Promise<{ id: string; subdomain: string; base_url: string }>;
  close(): Promise<void>;
}

export interface TestAccount {
  id: string;
  email: string;
  password: string;
  token: string;
  auth: { Authorization: string };
}

export const uniqueSuffix = (): string => randomBytes(5).toString('hex');
export const uniqueSubdomain = (): string => `t${uniqueSuffix()}`;
export const uniqueEmail = (): string => `cp-${uniqueSuffix()}@example.test`;
/** A client address of its own, so the per-address login throttle of one test never touches another. */
export const uniqueAddress = (): string => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;

/**
 * The usual setup of a spec file: one control plane started before its tests, with an owner
 * account signed up, and closed after them. `ready` receives both:
 * `useTestApp((app, account) => ([t, owner] = [app, account]))`.
 */
export function useTestApp(ready: (app: TestApp, owner: TestAccount) => void): void {
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await startTestApp();
    ready(started, await started.signup());
  });
  afterAll(() => started?.close());
}

export async function startTestApp(overrides: (config: ControlPlaneConfig) => ControlPlaneConfig = (c) => c): Promise<TestApp> {
  const base = loadControlPlaneConfig(process.env);
  const config = overrides({ ...base, trustProxy: true, publication: { ...base.publication, background: false } });
  const app = await createControlPlaneApp(config);
  const prisma = app.get(PrismaClient);
  const redis = createRedisClient({ url: config.redisUrl, clusterNodes: config.redisClusterNodes });
  const accounts: string[] = [];
  const http = () => request(app.getHttpServer());
  const internalListener = internalRequestListener(app);
  const internal = () => request(internalListener);

  return {
    app,
    config,
    http,
    internal,
    prisma,
    redis,
    async signup() {
      const email = uniqueEmail();
      const password = `pw-${uniqueSuffix()}-long`;
      const response = await http().post('/v1/auth/signup').send({ email, password }).expect(201);
      accounts.push(response.body.user.id);
      const token = response.body.token as string;
      return { id: response.body.user.id, email, password, token, auth: { Authorization: `Bearer ${token}` } };
    },
    async createProject(account, name = 'Test project') {
      const response = await http().post('/v1/projects').set(account.auth).send({ name, subdomain: uniqueSubdomain() }).expect(201);
      return response.body;
    },
    async close() {
      const publication = app.get(PublicationService);
      const projects = await prisma.project.findMany({ where: { accountId: { in: accounts } }, select: { id: true } });
      for (const project of projects)
        await publication.deleteProject({ projectId: project.id }, async (tx) => {
          await tx.project.delete({ where: { id: project.id } });
        });
      await prisma.account.deleteMany({ where: { id: { in: accounts } } });
      redis.disconnect();
      await app.close();
    },
  };
}

/** The project document the gateways read, or null. */
export async function publishedProject(redis: RedisClient, projectId: string): Promise<PublishedProject | null> {
  const json = await redis.get(projectKey(projectId));
  return json ? (JSON.parse(json) as PublishedProject) : null;
}
