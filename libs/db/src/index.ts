export { PrismaClient, Prisma } from './generated/client';
export * from './prisma-client';
export { migrate, readMigrations, MigrationError, MIGRATIONS_DIR, type MigrateOptions, type MigrationFile } from './migrate';
export { ensureDatabase } from './ensure-database';
export * from './request-log-partitions';
export * from './request-log-rollups';
export * from './latency-histogram';
