import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const engineBans = ['@nestjs/*', '@prisma/*', 'prisma', 'ioredis', 'kafkajs', 'bullmq', 'pg', 'express'];

/** Tests, their helpers and the benchmarks may import the test kit (libs/testing, `scope:testing`); nothing else may. */
const testFiles = ['**/*.spec.ts', '**/*.spec.tsx', '**/testing/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'];

function moduleBoundaries({ tests }) {
  const kit = tests ? ['scope:testing'] : [];
  return [
    'error',
    {
      enforceBuildableLibDependency: false,
      allow: [],
      depConstraints: [
        // The engine and the contracts are pure: shared by the gateway, the control plane and the browser.
        { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared', ...kit], bannedExternalImports: engineBans },
        { sourceTag: 'scope:frontend', onlyDependOnLibsWithTags: ['scope:shared'] },
        { sourceTag: 'scope:backend', onlyDependOnLibsWithTags: ['scope:backend', 'scope:shared', ...kit] },
        // The test kit drives the backend from outside: it may use the libs, never an app.
        { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: ['scope:backend', 'scope:shared', 'scope:testing'] },
        // Only backend apps reach the database client.
        { sourceTag: 'type:util', notDependOnLibsWithTags: ['type:data-access', 'type:app'] },
        { sourceTag: 'type:feature', notDependOnLibsWithTags: ['type:data-access', 'type:app'] },
        { sourceTag: 'type:engine', onlyDependOnLibsWithTags: ['type:engine', 'type:util', ...(tests ? ['type:testing'] : [])] },
      ],
    },
  ];
}

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'libs/db/src/generated/**', '.cache/**', '.nx/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      '@nx/enforce-module-boundaries': moduleBoundaries({ tests: false }),
    },
  },
  {
    // The dashboard's hooks: called in the same order on every render, with every value they read in their dependencies.
    files: ['apps/dashboard/**/*.ts', 'apps/dashboard/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: testFiles,
    plugins: { '@nx': nx },
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries({ tests: true }) },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', fetch: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
