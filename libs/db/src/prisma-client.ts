import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';

/** A Prisma client over node-postgres (Prisma 7 uses driver adapters, no native query engine). */
export function createPrismaClient(databaseUrl: string, options: { max?: number } = {}): PrismaClient {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: options.max ?? 10 });
  return new PrismaClient({ adapter });
}
