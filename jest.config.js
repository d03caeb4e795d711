// The repository's tests in three tiers (docs/development.md):
// - unit: `*.spec.ts` in apps, libs and test — pure, no PostgreSQL, Redis or Kafka, no global setup
//   (the dashboard's pure modules too: store, model, layout, API client);
// - dashboard: the dashboard's components, `*.spec.tsx`, in jsdom;
// - integration: `*.int.spec.ts(x)`, against the real PostgreSQL, Redis and Kafka that
//   test/global-setup.js starts or reuses.
// `npx jest` runs all three; `npm run test:unit` runs the first two (`--selectProjects unit dashboard --`:
// paths go after the `--`, or Jest reads them as more project names and runs every test).
const fs = require('node:fs');
const swcrc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, 'utf8'));
delete swcrc.$schema;
const aliases = JSON.parse(fs.readFileSync(`${__dirname}/tsconfig.base.json`, 'utf8')).compilerOptions.paths;

const shared = {
  rootDir: __dirname,
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/apps/dashboard/e2e/'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { ...swcrc, sourceMaps: 'inline', swcrc: false }] },
  moduleNameMapper: {
    // The path aliases of tsconfig.base.json (also read by scripts/lib/swc-options.js): one list.
    ...Object.fromEntries(Object.entries(aliases).map(([alias, [file]]) => [`^${alias.replaceAll('/', '\\/')}$`, `<rootDir>/${file}`])),
    // A page's own stylesheet (import './x.css') means nothing to jsdom.
    '\\.css$': '<rootDir>/apps/dashboard/src/testing/style-stub.ts',
  },
};

module.exports = {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/{apps,libs,test}/**/*.spec.ts'],
      testPathIgnorePatterns: [...shared.testPathIgnorePatterns, '\\.int\\.spec\\.tsx?$'],
      // Points every service address at a closed port, so a unit test that reaches for a service fails at once.
      setupFiles: ['<rootDir>/test/unit-setup.js'],
    },
    {
      ...shared,
      displayName: 'dashboard',
      testEnvironment: 'jsdom',
      testMatch: ['<rootDir>/apps/dashboard/src/**/*.spec.tsx'],
      testPathIgnorePatterns: [...shared.testPathIgnorePatterns, '\\.int\\.spec\\.tsx?$'],
      // jsdom lacks TextEncoder and Request, which the engine and React Router read.
      setupFiles: ['<rootDir>/test/unit-setup.js', '<rootDir>/apps/dashboard/src/testing/jsdom-globals.ts'],
    },
    {
      ...shared,
      displayName: 'integration',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/{apps,libs,test}/**/*.int.spec.ts?(x)'],
      globalSetup: '<rootDir>/test/global-setup.js',
    },
  ],
  // Global options: Jest reads them from here, not from a project.
  testTimeout: 30000,
  maxWorkers: 2,
};
