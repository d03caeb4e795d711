import { Inject, Injectable } from '@nestjs/common';
import { SecretBox } from '@flowgate/platform';
import { AppError } from '../common/app-error';
import { previewSubdomain } from '@flowgate/contracts';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import type { Tx } from '../infrastructure/transaction';
import { resealStaleProjectSecrets, resealStaleSecrets, sealForGateways } from './integration-secrets';
import { type LockedProject, PublicationRepository } from './publication.repository';
import { buildApiDescription } from './api-description.builder';
import { PublicationStore } from './publication.store';
import { buildPublishedProject, type ProjectServingState, publishedKeyFields } from './published-project.builder';

/** Which project a change is for; with `accountId`, a project of another account is a 404. */
export interface ProjectScope {
  projectId: string;
  accountId?: string;
}

export interface PublishableKey {
  id: string;
  keyHash: string;
  permission: 'user' | 'admin';
  ratelimitMin: number;
}

/**
 * The one way serving state changes. Each operation runs in a PostgreSQL transaction that holds
 * the project's advisory lock, makes the change, writes Redis (one MULTI), and only then commits:
 * when Redis refuses, the change is rolled back and the caller gets 503, so PostgreSQL and what
 * the gateways serve never disagree once the HTTP answer is out.
 */
@Injectable()
export class PublicationService {
  constructor(
    private readonly repository: PublicationRepository,
    private readonly store: PublicationStore,
    private readonly secrets: SecretBox,
    @Inject(CONFIG) private readonly config: ControlPlaneConfig,
  ) {}

  /** A new project: created and published in one transaction. */
  publishNewProject<T extends { id: string }>(create: (tx: Tx) => Promise<T>): Promise<T> {
    return this.repository.transaction(async (tx) => {
      const created = await create(tx);
      await this.repository.lock(tx, created.id);
      await this.publish(tx, created.id, { previousSubdomain: null, announce: true });
      return created;
    });
  }

  /** A change that affects serving: made, revision bumped, published, committed. */
  changeServing<T>(scope: ProjectScope, change: (tx: Tx, project: LockedProject) => Promise<T>): Promise<T> {
    return this.repository.transaction(async (tx) => {
      const project = await this.lockOwned(tx, scope);
      const result = await change(tx, project);
      await this.repository.bumpRevision(tx, project.id);
      await this.publish(tx, project.id, { previousSubdomain: project.subdomain, announce: true });
      return result;
    });
  }

  /**
   * Ends an endpoint's cached GET answers; called once its Deploy, rollback or undeploy is
   * published and before the answer, so no caller gets an answer of the version it replaced.
   */
  endCachedAnswers(projectId: string, endpointId: string): Promise<void> {
    return this.store.endCachedAnswers(projectId, endpointId);
  }

  /** A change that only the API description shows (the project's name): made, the description rewritten, committed. */
  changeDescription<T>(scope: ProjectScope, change: (tx: Tx, project: LockedProject) => Promise<T>): Promise<T> {
    return this.repository.transaction(async (tx) => {
      const project = await this.lockOwned(tx, scope);
      const result = await change(tx, project);
      const state = await this.repository.loadServingState(tx, project.id);
      if (state) await this.store.writeOpenApi(project.id, this.describe(state));
      return result;
    });
  }

  /** Deletes a project (by `remove`) and everything it published: subdomain, document, keys. */
  deleteProject(scope: ProjectScope, remove: (tx: Tx) => Promise<void>): Promise<void> {
    return this.repository.transaction(async (tx) => {
      const project = await this.lockOwned(tx, scope);
      const state = await this.repository.loadServingState(tx, project.id);
      await remove(tx);
      await this.store.removeProject(
        project.id,
        project.subdomain,
        (state?.keys ?? []).map((key) => key.keyHash),
      );
    });
  }

  /** A new API key: stored and published before the answer, so the next gateway request accepts it. */
  addKey<T extends PublishableKey>(scope: ProjectScope, insert: (tx: Tx, project: LockedProject) => Promise<T>): Promise<T> {
    return this.repository.transaction(async (tx) => {
      const project = await this.lockOwned(tx, scope);
      const key = await insert(tx, project);
      await this.store.writeKey(project.id, { keyHash: key.keyHash, fields: publishedKeyFields(project.id, key) });
      return key;
    });
  }

  /** A deleted API key: its record leaves Redis before the answer, so the next gateway request refuses it. */
  removeKey<T extends { keyHash: string }>(scope: ProjectScope, remove: (tx: Tx, project: LockedProject) => Promise<T>): Promise<T> {
    return this.repository.transaction(async (tx) => {
      const project = await this.lockOwned(tx, scope);
      const removed = await remove(tx, project);
      await this.store.removeKey(project.id, removed.keyHash);
      return removed;
    });
  }

  /**
   * Rewrites one project's document, subdomain and key records from PostgreSQL; false when it
   * no longer exists. `asChange`: under a new revision, announced, so gateways take it whatever
   * copy they hold (the reconciler's repair of a project that differs).
   */
  republishProject(projectId: string, options: { asChange?: boolean } = {}): Promise<boolean> {
    return this.repository.transaction(async (tx) => {
      if (!(await this.repository.lock(tx, projectId))) return false;
      if (options.asChange) await this.repository.bumpRevision(tx, projectId);
      await this.publish(tx, projectId, { previousSubdomain: null, announce: options.asChange === true, withKeys: true });
      return true;
    });
  }

  private async lockOwned(tx: Tx, scope: ProjectScope): Promise<LockedProject> {
    const project = await this.repository.lock(tx, scope.projectId);
    if (!project || (scope.accountId !== undefined && project.accountId !== scope.accountId))
      throw new AppError('project_not_found', 'Project not found');
    return project;
  }

  private async publish(
    tx: Tx,
    projectId: string,
    options: { previousSubdomain: string | null; announce: boolean; withKeys?: boolean },
  ): Promise<void> {
    const state = await this.repository.loadServingState(tx, projectId);
    if (!state) throw new AppError('project_not_found', 'Project not found');
    await resealStaleSecrets(this.secrets, state, (kind, from, to) => this.repository.replaceSecret(tx, projectId, kind, from, to));
    await resealStaleProjectSecrets(this.secrets, state, (id, column, from, to) => this.repository.replaceProjectSecret(tx, id, column, from, to));
    await this.store.writeProject(buildPublishedProject(state, (sealed) => this.reseal(sealed)), {
      previousSubdomain: options.previousSubdomain,
      announce: options.announce,
      keys: options.withKeys ? this.keyRecords(state) : undefined,
      // Built here, once per change, not per request: the gateways and the dashboard serve this text.
      openApi: this.describe(state),
      previewOpenApi: this.describe({ ...state, routes: state.previewRoutes }, previewSubdomain(state.subdomain)),
    });
  }

  private describe(state: ProjectServingState, subdomain = state.subdomain): string {
    return JSON.stringify(buildApiDescription(state, this.config.gatewayPublicUrl.replace('{subdomain}', subdomain)));
  }

  private keyRecords(state: ProjectServingState) {
    return state.keys.map((key) => ({ keyHash: key.keyHash, fields: publishedKeyFields(state.id, key) }));
  }

  /** Integration secrets are published encrypted afresh (new IV) under FLOWGATE_ENCRYPTION_KEY; null when undecryptable. */
  private reseal(stored: string): string | null {
    return sealForGateways(this.secrets, stored);
  }
}
