// A Jest reporter that prints, after the run, the ten test files that took longest, with the CPU
// each used in its worker (./file-cpu.ts writes it): where a slow CI's time goes. Beside Jest's
// own reporter (jest.config.ts).
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
        const { file, cpuMs } = JSON.parse(line);
        cpu.set(file, cpuMs);
      }
    fs.rmSync(this.folder, { recursive: true, force: true });
    const slowest = this.files.sort((a, b) => b.seconds - a.seconds).slice(0, 10);
    const rows = slowest.map(({ file, seconds }) => {
      const used = cpu.get(file);
      return `  ${seconds.toFixed(1).padStart(6)} s  ${used === undefined ? '     ?' : (used / 1000).toFixed(1).padStart(6)} s CPU  ${path.relative(process.cwd(), file)}`;
    });
    process.stdout.write(`\nThe ten slowest test files (wall time, the CPU of their worker):\n${rows.join('\n')}\n`);
  }
}
