// Which core does what in the bench, when taskset exists: the servers measured on core 0, the
// load generator and the peers that are not measured on core 1. Only a server process's main
// thread is pinned: V8's GC helper threads stay free, as on a server with more than one core
// (docs/performance.md).
import { spawn, spawnSync, type SpawnOptionsWithoutStdio } from 'node:child_process';

export const taskset = spawnSync('taskset', ['-V']).status === 0;

/** Pins this process's main thread to the servers' core. */
export function pinToServerCore(): void {
  if (taskset) spawnSync('taskset', ['-cp', '0', String(process.pid)]);
}

/** `node <args>` on the load generator's core. */
export function spawnOnLoadCore(args: string[], options: SpawnOptionsWithoutStdio = {}) {
  return taskset ? spawn('taskset', ['-c', '1', process.execPath, ...args], options) : spawn(process.execPath, args, options);
}
