/** @jest-config-loader esbuild-register */
// Unit tests sit beside the code (src/**/*.test.ts); end-to-end tests in test/ start the real
// server and sandbox peers. ESM throughout (got and p-retry are ESM-only), transformed by SWC.
//
// Three projects. `unit`: the pure rules beside their code. `protocol`: end-to-end tests whose
// outcome cannot depend on the database (the interface's documents, HTTP and GraphQL over HTTP,
// the standard clients, the conformance kit, the import graph). `storage`: every other test of
// test/. `npm test` runs all three on SQLite; with DATABASE_URL naming a PostgreSQL server it runs
// `storage` alone, on PostgreSQL: what can only differ there (CI, .ci/run, runs both).
import type { Config } from 'jest';

// The tests run in a zone away from UTC (the workers inherit it), so that code which would read
// or write a time as local time fails here rather than on a partner's server.
process.env.TZ ??= 'America/New_York';

/** The end-to-end tests whose outcome the database cannot change. */
const PROTOCOL = [
  'architecture',
  'bench-profile',
  'certify/certify',
  'certify/certify-dsp',
  // The demo runs on a SQLite database of its own, whatever DATABASE_URL names.
  'cli/demo',
  'server/graphql-http',
  'server/graphql-over-http',
  'modules/auth/oauth-clients',
  'server/offline-pages',
  'modules/flags/ofrep',
  // The README's walkthrough is a newcomer's `npm start`, on its embedded SQLite; what it drives
  // (onboarding, an order to the POS, the dashboard) runs on PostgreSQL in the storage files.
  'readme-walkthrough',
  'server/openapi',
  'server/openapi-generators',
  'integrations/provider-client',
  'docs-links',
  'guide-scopes',
  'server/rest-errors',
  'server/subscription-arguments',
].map((name) => `<rootDir>/test/${name}.test.ts`);

const common: Config = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'es6' },
      },
    ],
  },
  testTimeout: 60_000,
  // Each file's CPU, for the list of the slowest (test/support/slowest-files.mjs).
  setupFilesAfterEnv: ['<rootDir>/test/support/file-cpu.ts'],
  // A package is loaded once per worker, not once per test file (./test/support/shared-runtime.cjs).
  runtime: '<rootDir>/test/support/shared-runtime.cjs',
};

const projects: Config[] = [
  { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.test.ts'] },
  { ...common, displayName: 'protocol', testMatch: PROTOCOL },
  {
    ...common,
    displayName: 'storage',
    testMatch: ['<rootDir>/test/**/*.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', '/test/bench/', ...PROTOCOL.map((file) => file.replace('<rootDir>', ''))],
  },
];
const url = process.env.DATABASE_URL;
// As src/db/url.ts's providerOf decides (the config loader cannot import our ESM sources).
const onPostgres = !!url && /^postgres(ql)?:\/\//.test(url);

const config: Config = {
  projects: onPostgres ? projects.filter((project) => project.displayName === 'storage') : projects,
  // Each end-to-end file starts its own server and database. Three workers on this 2-core machine:
  // a file's CPU is partly its children's (a CLI, a killed service, the browser) and its waits on
  // sockets, and with two workers a core stood idle a third of the time (npm test alone: 3 min 1 s
  // with two workers, 2 min 38 s with three). CI runs both passes at once, two workers each
  // (.ci/run's --maxWorkers=2).
  maxWorkers: 3,
  // Jest reads the time a test may take from here, not from its projects (jest-circus takes the
  // global config's): without it every test had Jest's 5 s, and a loaded machine failed them.
  testTimeout: 60_000,
  // The service built once and a template database migrated once, for every test file.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/support/slowest-files.mjs'],
};

export default config;
