import { randomUUID } from 'node:crypto';
import { AppError } from '../common/app-error';
import type { Tx } from '../infrastructure/transaction';
import type { ProjectsService } from '../projects/projects.service';
import type { LockedProject } from '../publication/publication.repository';
import type { ProjectScope, PublicationService } from '../publication/publication.service';

// Fakes of the services the control plane's services lean on, for their unit specs (no
// PostgreSQL, no Redis): an account owning one project, and a publication that runs each change
// for a project that account owns and records what it would have published. The services'
// integration specs (*.int.spec.ts) run the same API for real.

/** The transaction a fake publication hands to a change: the fake repositories ignore it. */
export const FAKE_TX = {} as Tx;

export interface FakeWorld {
  owner: string;
  project: LockedProject;
  /** Another account: it owns nothing here. */
  stranger: string;
}

export function fakeWorld(): FakeWorld {
  const owner = randomUUID();
  return { owner, stranger: randomUUID(), project: { id: randomUUID(), accountId: owner, subdomain: 'shop' } };
}

const notFound = () => new AppError('project_not_found', 'Project not found');

/** ProjectsService.requireOwned: the project for its owner, 404 for anyone else or any other id. */
export function fakeProjects(world: FakeWorld): ProjectsService {
  const projects = {
    requireOwned: async (accountId: string, projectId: string) => {
      if (accountId !== world.owner || projectId !== world.project.id) throw notFound();
      return { ...world.project, name: 'Shop', requireAuth: false, createdAt: new Date(0), updatedAt: new Date(0) };
    },
  };
  return projects as unknown as ProjectsService;
}

/** What a fake publication did, in order: `serving` (published to the gateways), `description`, `deleted`, `created`. */
export type PublicationEvent = 'serving' | 'description' | 'deleted' | 'created';

export class FakePublication {
  readonly events: PublicationEvent[] = [];

  constructor(private readonly world: FakeWorld) {}

  private owned(scope: ProjectScope): LockedProject {
    if (scope.projectId !== this.world.project.id || (scope.accountId !== undefined && scope.accountId !== this.world.owner)) throw notFound();
    return this.world.project;
  }

  /** Published only when the change went through, as the real one commits and publishes together. */
  async changeServing<T>(scope: ProjectScope, change: (tx: Tx, project: LockedProject) => Promise<T>): Promise<T> {
    const result = await change(FAKE_TX, this.owned(scope));
    this.events.push('serving');
    return result;
  }

  async changeDescription<T>(scope: ProjectScope, change: (tx: Tx, project: LockedProject) => Promise<T>): Promise<T> {
    const result = await change(FAKE_TX, this.owned(scope));
    this.events.push('description');
    return result;
  }

  async publishNewProject<T extends { id: string }>(create: (tx: Tx) => Promise<T>): Promise<T> {
    const created = await create(FAKE_TX);
    this.events.push('created');
    return created;
  }

  async deleteProject(scope: ProjectScope, remove: (tx: Tx) => Promise<void>): Promise<void> {
    this.owned(scope);
    await remove(FAKE_TX);
    this.events.push('deleted');
  }

  asService(): PublicationService {
    return this as unknown as PublicationService;
  }
}

/** Runs `work` and returns the AppError it threw (fails the test when it threw nothing or something else). */
export async function appErrorOf(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}
