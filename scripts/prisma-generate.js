#!/usr/bin/env node
// Generates the Prisma client into libs/db/src/generated (git-ignored). The Prisma CLI wants
// to download a native schema engine at start, which `generate` does not need: pointing
// PRISMA_SCHEMA_ENGINE_BINARY at any existing file skips the download.
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const cli = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
if (!existsSync(cli)) {
  console.error('prisma-generate: node_modules/prisma is missing — run `npm install` first');
  process.exit(1);
}
const result = spawnSync(process.execPath, [cli, 'generate'], {
  cwd: root,
  stdio: process.argv.includes('--quiet') ? 'pipe' : 'inherit',
  env: {
    ...process.env,
    CHECKPOINT_DISABLE: '1',
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  },
});
if (result.status !== 0) {
  if (result.stderr) process.stderr.write(result.stderr);
  console.error('prisma-generate: `prisma generate` failed');
  process.exit(result.status ?? 1);
}
