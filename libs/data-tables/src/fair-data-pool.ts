import { FairShares, ShareQueueFull } from '@flowgate/platform';
import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { sendCancelRequest } from './cancel-request';
import { DataError, dataErrorOf } from './data-error';

/** What a RowStore runs its statements on. */
export interface Queryable {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

/** A tenant's statements waiting for a connection; beyond that its next statement is refused at once. */
const MAX_WAITING_PER_TENANT = 64;

/**
 * The data database's pool shared between tenants (the gateway's projects, the control plane's
 * accounts) by the connection time each consumed (FairShares): a tenant holds at most half of
 * the connections, and a connection that comes free goes to the waiting tenant that held
 * connections the least of late. A statement whose signal fires (the flow's deadline, the run
 * ended) leaves the line, or is cancelled on the server if it runs (PostgreSQL's cancel request,
 * which PgBouncer forwards), so no connection keeps working for a run that is over.
 */
export class FairDataPool {
  private readonly shares: FairShares;

  constructor(
    readonly pool: Pool,
    size: number,
  ) {
    this.shares = new FairShares({ capacity: size, perTenant: Math.max(1, Math.floor(size / 2)) });
  }

  /** Statements of one tenant, each waiting for the tenant's turn; `signal` ends them (waiting or running). */
  forTenant(tenantId: string, signal?: AbortSignal): Queryable {
    return { query: (text, values) => this.query(tenantId, text, values, signal) };
  }

  /**
   * Runs `work`, which uses one connection of `pool` (a CSV import's transaction), in the
   * tenant's turn: the connection it holds counts against the tenant's share.
   */
  async withTurn<T>(tenantId: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    let lease;
    try {
      lease = await this.shares.acquire(tenantId, signal, MAX_WAITING_PER_TENANT);
    } catch (error) {
      if (error instanceof ShareQueueFull) throw new DataError('busy', `${MAX_WAITING_PER_TENANT} statements of this project are already waiting for the database; try again shortly`);
      throw error;
    }
    try {
      return await work();
    } finally {
      lease.release();
    }
  }

  private query<R extends QueryResultRow>(tenantId: string, text: string, values: unknown[] | undefined, signal: AbortSignal | undefined): Promise<QueryResult<R>> {
    return this.withTurn(
      tenantId,
      async () => {
        const client = await this.pool.connect();
        try {
          return await this.cancellable(client, client.query<R>(text, values), signal);
        } finally {
          client.release();
        }
      },
      signal,
    );
  }

  /** The statement's result; if the signal fires while it runs, the server is asked to cancel it, and it ends with the server's error. */
  private async cancellable<R extends QueryResultRow>(client: PoolClient, running: Promise<QueryResult<R>>, signal: AbortSignal | undefined): Promise<QueryResult<R>> {
    if (signal === undefined) return running;
    // The connection is held until the statement settled: a cancel cannot reach the next one.
    const cancel = (): void => sendCancelRequest(client);
    if (signal.aborted) cancel();
    else signal.addEventListener('abort', cancel, { once: true });
    try {
      return await running;
    } catch (error) {
      throw dataErrorOf(error);
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }
}
