import path from 'node:path';

/**
 * The require hook that runs the TypeScript sources (scripts/register-ts.js), for worker threads
 * and child processes started from source (development, tests). A compiled build has plain
 * JavaScript beside its callers and never loads it.
 */
export const TYPESCRIPT_HOOK = path.resolve(__dirname, '../../../scripts/register-ts.js');

