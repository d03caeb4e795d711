import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { createDataPool, FairDataPool, setupDataDatabase, writeDataLimits } from '@flowgate/data-tables';
import { ensureDatabase } from '@flowgate/db';
import type { Pool } from 'pg';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';

/** Connections for table definitions (DDL, type changes, usage counts): rare, and not timed. */
const ADMIN_CONNECTIONS = 4;

/**
 * The pools on DATA_DATABASE_URL. `rows` (DATA_POOL_SIZE connections) serves the rows API and
 * CSV: every statement bounded by DATA_STATEMENT_TIMEOUT_MS on the server, the connections
 * shared between accounts by the connection time each used (an account holds at most half).
 * `pool` serves table definitions, whose statements (an index built on a million rows, a
 * type change validated) may rightly take longer than any request should. At boot the database is created when
 * missing, its `flowgate` schema set up, and the limits of this configuration written where the
 * usage trigger reads them.
 */
@Injectable()
export class DataDatabase implements OnModuleInit, OnApplicationShutdown {
  readonly pool: Pool;
  readonly rows: FairDataPool;

  constructor(@Inject(CONFIG) private readonly config: ControlPlaneConfig) {
    const { url, poolSize, statementTimeoutMs } = config.data;
    this.pool = createDataPool({ url, max: Math.min(ADMIN_CONNECTIONS, poolSize), applicationName: 'flowgate-control-plane' });
    this.rows = new FairDataPool(createDataPool({ url, max: poolSize, statementTimeoutMs, applicationName: 'flowgate-control-plane-rows' }), poolSize);
  }

  async onModuleInit(): Promise<void> {
    await ensureDatabase(this.config.data.url);
    await setupDataDatabase(this.pool);
    await writeDataLimits(this.pool, this.config.data.limits);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.pool.end(), this.rows.pool.end()]);
  }
}
