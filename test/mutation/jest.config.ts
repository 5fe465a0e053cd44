/** @jest-config-loader esbuild-register */
// The unit tests alone, for mutation testing (./stryker.config.json): the pure rules beside their
// code, with none of the end-to-end suite's set-up (no build, no template database).
import type { Config } from 'jest';

// Required, not imported: Jest loads this file as CommonJS, where an ESM specifier does not resolve.
const base = (require('../../jest.config') as { default: Config }).default;
const unit = (base.projects as Config[]).find((project) => project.displayName === 'unit')!;

const config: Config = { ...unit, rootDir: '../..', displayName: undefined };

export default config;
