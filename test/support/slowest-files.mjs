// A Jest reporter that prints, after the run, the ten test files that took longest and the ten that
// used the most CPU, each with the CPU it used in its worker and in the children it started
// (./file-cpu.ts writes it), and the run's total: where a slow CI's time goes. Beside Jest's own
// reporter (jest.config.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default class SlowestFiles {
  constructor() {
    // The workers start after the reporters: they inherit the folder of this run.
    this.folder = fs.mkdtempSync(path.join(os.tmpdir(), 'test-cpu-'));
    process.env.TEST_CPU_DIR = this.folder;
    this.files = [];
  }

  onTestResult(_test, result) {
    this.files.push({ file: result.testFilePath, seconds: (result.perfStats.end - result.perfStats.start) / 1000 });
  }

  onRunComplete() {
    const cpu = new Map();
    for (const name of fs.readdirSync(this.folder))
      for (const line of fs.readFileSync(path.join(this.folder, name), 'utf8').split('\n').filter(Boolean)) {
        const { file, cpuMs, childrenMs } = JSON.parse(line);
        cpu.set(file, { own: cpuMs, children: childrenMs });
      }
    fs.rmSync(this.folder, { recursive: true, force: true });
    /** A figure in seconds, in a column six wide; `?` for a file that wrote none. */
    const cell = (ms) => (ms === undefined ? '?' : (ms / 1000).toFixed(1)).padStart(6);
    const row = ({ file, seconds }) => {
      const used = cpu.get(file);
      return `  ${cell(seconds * 1000)} s ${cell(used?.own)} s ${cell(used?.children)} s  ${path.relative(process.cwd(), file)}`;
    };
    const total = ({ file }) => (cpu.get(file)?.own ?? 0) + (cpu.get(file)?.children ?? 0);
    const slowest = [...this.files].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
    const busiest = [...this.files].sort((a, b) => total(b) - total(a)).slice(0, 10);
    const sum = (key) => [...cpu.values()].reduce((all, used) => all + used[key], 0);
    const heading = '     wall   worker  children (CPU)';
    process.stdout.write(
      `\nThe ten slowest test files:\n${heading}\n${slowest.map(row).join('\n')}\n` +
        `The ten that used the most CPU:\n${heading}\n${busiest.map(row).join('\n')}\n` +
        `All files: ${(sum('own') / 1000).toFixed(0)} s of CPU in the workers, ${(sum('children') / 1000).toFixed(0)} s in their children (the shared Chromium in neither)\n`,
    );
  }
}
