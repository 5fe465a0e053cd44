// Which core does what in the bench, when taskset exists: the servers measured on core 0, the
// load generator and the peers that are not measured on core 1. Only a server process's main
// thread is pinned: V8's GC helper threads stay free, as on a server with more than one core
// (docs/performance.md).
import os from 'node:os';
import { spawn, spawnSync, type SpawnOptionsWithoutStdio } from 'node:child_process';

export const taskset = spawnSync('taskset', ['-V']).status === 0;

/** Pins this process's main thread to the servers' core. */
export function pinToServerCore(): void {
  if (taskset) spawnSync('taskset', ['-cp', '0', String(process.pid)]);
}

/** Every core, for what the operating system places as it likes (PostgreSQL, a second instance):
 * a process we start inherits our main thread's pinning to the servers' core. */
export const ALL_CORES = `0-${os.cpus().length - 1}`;

/** Lets a process we started (every thread of it) run on any core. */
export function unpin(pid: number): void {
  if (taskset) spawnSync('taskset', ['-acp', ALL_CORES, String(pid)]);
}

/** `node <args>` on the load generator's core. */
export function spawnOnLoadCore(args: string[], options: SpawnOptionsWithoutStdio = {}) {
  return taskset ? spawn('taskset', ['-c', '1', process.execPath, ...args], options) : spawn(process.execPath, args, options);
}
