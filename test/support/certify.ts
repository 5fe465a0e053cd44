// The conformance kit as a vendor runs it (`cli certify …`), in a process of its own with no data
// of ours, for the kit's tests: its output line by line as it comes (a test answers the line that
// says where to send a webhook), its report as JSON, its exit code.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnMain } from './build.js';

export type Report = {
  kind: string;
  base_url: string;
  passed: number;
  failed: number;
  checks: { id: string; ok: boolean; detail: string }[];
  skipped: { id: string; detail: string }[];
};

/** The kit with these arguments, with no data of ours (an empty DATA_DIR) unless `env` says
 * otherwise; `onLine` sees its output as it comes. */
export function kit(
  args: string[],
  onLine: (line: string) => void = () => {},
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'certify-'));
  const child = spawnMain(['certify', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
    for (const line of chunk.toString().split('\n')) if (line) onLine(line);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
    for (const line of chunk.toString().split('\n')) if (line) onLine(line);
  });
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve({ code: code ?? -1, stdout, stderr });
    }),
  );
}

/** A fresh file for the kit's JUnit report. */
export const junitFile = (name: string) => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'junit-')), name);

/** The failed checks of a report, by id, with their details. */
export const failedChecks = (report: Report) => Object.fromEntries(report.checks.filter((c) => !c.ok).map((c) => [c.id, c.detail]));
