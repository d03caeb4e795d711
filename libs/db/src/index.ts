export { PrismaClient, Prisma } from './generated/client';
export * from './prisma-client';
