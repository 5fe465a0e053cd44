// Debian's Chromium for the browser tests: CHROMIUM_PATH, or the usual places. `npm test`'s
// pretest step (test/support/ensure-chromium.mjs) installs it from Debian when it is missing.
//
// One Chromium per test run, shared by the files that drive a browser (each launching its own
// cost half a second and most of a second of CPU a file, in each pass): the first file that asks
// starts it as a process of its own, its address kept in the run's directory
// (./global-setup.ts), and ./global-teardown.ts ends it. A file works in browser contexts of its
// own (their own cookies and downloads; two files may drive the browser at once) and, at its end,
// disconnects: it never closes the browser.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import puppeteer, { type BrowserContext, type BrowserContextOptions, type Page } from 'puppeteer-core';
import { until } from './wait.js';

export function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (p): p is string => !!p && fs.existsSync(p),
  );
  if (!found) throw new Error("no Chromium: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH");
  return found;
}

/** Where the run's Chromium is: its DevTools address and its process. */
type Shared = { endpoint: string; pid: number };

/** Starts Chromium as puppeteer would (its default arguments, American English), detached from
 * this worker: it serves every file of the run, whichever worker ran the first. */
async function startChromium(runDir: string): Promise<Shared> {
  const args = puppeteer.defaultArgs({
    headless: true,
    userDataDir: path.join(runDir, 'chromium-profile'),
    args: ['--no-sandbox', '--lang=en-US', '--remote-debugging-port=0'],
  });
  const child = spawn(chromiumPath(), args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let printed = '';
  child.stderr.on('data', (chunk) => (printed += chunk));
  const endpoint = await until(async () => {
    if (child.exitCode !== null) throw new Error(`Chromium exited (${child.exitCode}): ${printed}`);
    return /DevTools listening on (ws:\/\/\S+)/.exec(printed)?.[1];
  }, 30_000);
  child.stderr.destroy();
  child.unref();
  return { endpoint, pid: child.pid! };
}

/** The sizes the dashboard is seen at: a manager's laptop, and a phone in the kitchen. */
export const LAPTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true };

/** The run's browser as a file uses it: contexts of its own (its users, their cookies), all
 * closed by `close`, which leaves the browser to the other files. */
export type FileBrowser = {
  createBrowserContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  close(): Promise<void>;
};

/** The run's Chromium, started by the first file that asks, for this file. */
export async function sharedBrowser(): Promise<FileBrowser> {
  const runDir = process.env.TEST_RUN_DIR;
  if (!runDir) throw new Error("no TEST_RUN_DIR: the shared browser is the test run's (test/support/global-setup.ts)");
  // ./global-teardown.ts reads it to end the process.
  const file = path.join(runDir, 'chromium.json');
  let first = false;
  try {
    fs.closeSync(fs.openSync(path.join(runDir, 'chromium.lock'), 'wx'));
    first = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (first) {
    const shared = await startChromium(runDir);
    // Written whole, then renamed: a file that waits never reads half of it.
    fs.writeFileSync(`${file}.part`, JSON.stringify(shared));
    fs.renameSync(`${file}.part`, file);
  }
  const { endpoint } = await until(async () => fs.existsSync(file) && (JSON.parse(fs.readFileSync(file, 'utf8')) as Shared), 30_000);
  const browser = await puppeteer.connect({ browserWSEndpoint: endpoint });
  const made: BrowserContext[] = [];
  return {
    async createBrowserContext(options) {
      const context = await browser.createBrowserContext(options);
      made.push(context);
      return context;
    },
    async close() {
      for (const context of made) if (!context.closed) await context.close();
      await browser.disconnect();
    },
  };
}

const AXE = path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js');

/** axe-core's serious and critical violations on the page as it is now, each with where. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<any> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations as {
      id: string;
      impact: string;
      nodes: { target: string[] }[];
    }[];
  });
  return results
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
