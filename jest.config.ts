/** @jest-config-loader esbuild-register */
// Unit tests sit beside the code (src/**/*.test.ts); end-to-end tests in test/ start the real
// server and sandbox peers. ESM throughout (got and p-retry are ESM-only), transformed by SWC.
import type { Config } from 'jest';

// The tests run in a zone away from UTC (the workers inherit it), so that code which would read
// or write a time as local time fails here rather than on a partner's server.
process.env.TZ ??= 'America/New_York';

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/test/bench/'],
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
  // The service built once and a template database migrated once, for every test file.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // Each end-to-end file starts its own server and database; two workers fit the 2-core machines.
  maxWorkers: 2,
};

export default config;
