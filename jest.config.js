// One Jest run for the whole repository. `*.spec.ts` are unit tests (pure); `*.int.spec.ts`
// talk to the real PostgreSQL, Redis and Kafka that test/global-setup.js starts or reuses.
const fs = require('node:fs');
const swcrc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, 'utf8'));
delete swcrc.$schema;

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/{apps,libs,test}/**/*.spec.ts?(x)'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/apps/dashboard/e2e/'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { ...swcrc, sourceMaps: 'inline', swcrc: false }] },
  moduleNameMapper: {
    '^@flowgate/(flow-engine|contracts|db|platform|integrations|data-tables)$': '<rootDir>/libs/$1/src/index.ts',
    '^@flowgate/integrations/flow-ports$': '<rootDir>/libs/integrations/src/flow-ports/index.ts',
    // A page's own stylesheet (import './x.css') means nothing to jsdom.
    '\\.css$': '<rootDir>/apps/dashboard/src/testing/style-stub.ts',
  },
  globalSetup: '<rootDir>/test/global-setup.js',
  testTimeout: 30000,
  maxWorkers: 2,
};
