// Each test file's CPU, from its load to its end, for the run's list of slowest files
// (./slowest-files.mjs): a line per file in the run's folder (TEST_CPU_DIR, set by the reporter).
// Its worker's own, and its children's that ended meanwhile (a spawned service, a CLI run, a load
// generator: Linux adds a child's CPU to its parent's once the parent has reaped it). The shared
// Chromium (./chromium.ts) outlives every file and is counted in neither.
import fs from 'node:fs';
import path from 'node:path';

const folder = process.env.TEST_CPU_DIR;

/** The CPU of the worker's children that have ended, in ms (/proc/self/stat's cutime and cstime,
 * in clock ticks of 10 ms); 0 where there is no /proc. */
function childrenMs(): number {
  try {
    // The fields after the command's name, which is in parentheses and may hold spaces.
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

const began = { own: process.cpuUsage(), children: childrenMs() };

afterAll(() => {
  if (!folder) return;
  const used = process.cpuUsage(began.own);
  const line = JSON.stringify({
    file: expect.getState().testPath,
    cpuMs: Math.round((used.user + used.system) / 1000),
    childrenMs: childrenMs() - began.children,
  });
  fs.appendFileSync(path.join(folder, `${process.pid}.jsonl`), `${line}\n`);
});
