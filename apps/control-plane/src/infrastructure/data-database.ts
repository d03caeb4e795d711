import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { createDataPool, setupDataDatabase, writeDataLimits } from '@flowgate/data-tables';
import { ensureDatabase } from '@flowgate/db';
import type { Pool } from 'pg';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';

/**
 * The pool on DATA_DATABASE_URL (the rows of data tables). At boot the database is created when
 * missing, its `flowgate` schema set up, and the limits of this configuration written where the
 * usage trigger reads them.
 */
@Injectable()
export class DataDatabase implements OnModuleInit, OnApplicationShutdown {
  readonly pool: Pool;

  constructor(@Inject(CONFIG) private readonly config: ControlPlaneConfig) {
    this.pool = createDataPool({ url: config.data.url, max: config.data.poolSize, applicationName: 'flowgate-control-plane' });
  }

  async onModuleInit(): Promise<void> {
    await ensureDatabase(this.config.data.url);
    await setupDataDatabase(this.pool);
    await writeDataLimits(this.pool, this.config.data.limits);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
