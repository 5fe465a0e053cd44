// The service compiled once into build/ (esbuild: types stripped, one file per source file,
// src/'s tree kept at the same depth, so that the paths it finds by its own location, such as
// prisma/ and dist/dashboard, are the same), and how tests run it as a process of its own.
import { execFile, spawn, type ExecFileOptions, type SpawnOptionsWithoutStdio } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { providerOf } from '../../src/db/url.js';

const root = path.resolve(import.meta.dirname, '../..');
// A run on PostgreSQL builds its own copy beside, at the same depth: CI runs both passes side by side.
const server = process.env.DATABASE_URL;
const outdir = path.join(root, server && providerOf(server) === 'postgresql' ? 'build-postgresql' : 'build');
const MAIN = path.join(outdir, 'main.js');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

export async function buildService(): Promise<void> {
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: sources(path.join(root, 'src')),
    outdir,
    outbase: path.join(root, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
}

/** A built script of src/ (`sandbox/pos/main.js`), spawned. */
export const spawnBuilt = (script: string, args: string[], options: SpawnOptionsWithoutStdio = {}) =>
  spawn(process.execPath, [path.join(outdir, script), ...args], { cwd: root, ...options });

/** `node build/main.js <args>` (the command line, `npm start` with `start`), spawned. */
export const spawnMain = (args: string[], options: SpawnOptionsWithoutStdio = {}) =>
  spawn(process.execPath, [MAIN, ...args], { cwd: root, ...options });

/** The same, run to its end: its output. */
export const runMain = (args: string[], options: ExecFileOptions = {}): Promise<{ stdout: string; stderr: string }> =>
  promisify(execFile)(process.execPath, [MAIN, ...args], { cwd: root, ...options, encoding: 'utf8' });
