// Each test file's CPU, from its load to its end, for the run's list of slowest files
// (./slowest-files.mjs): a line per file in the run's folder (TEST_CPU_DIR, set by the reporter).
import fs from 'node:fs';
import path from 'node:path';

const folder = process.env.TEST_CPU_DIR;
const began = process.cpuUsage();

afterAll(() => {
  if (!folder) return;
  const used = process.cpuUsage(began);
  const line = JSON.stringify({ file: expect.getState().testPath, cpuMs: Math.round((used.user + used.system) / 1000) });
  fs.appendFileSync(path.join(folder, `${process.pid}.jsonl`), `${line}\n`);
});
