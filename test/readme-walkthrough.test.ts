// The README's "whole flow with curl", run as a newcomer would: the script as the README prints
// it (only its first line, the URLs and credentials, filled in from what `npm start` printed),
// against the service started as `npm start` starts it, with its sandbox peers. It must end
// with the order completed at the POS.
import fs from 'node:fs';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { freePort, spawnService, until } from './support/orders.js';
import { freshDatabase, type TestDatabase } from './support/service.js';

// The walkthrough is curl's: without it here, there is nothing to run (.ci/run installs it).
const hasCurl = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v curl']).length > 0;
  } catch {
    return false;
  }
})();

let database: TestDatabase;
let service: ReturnType<typeof spawnService> | undefined;
afterAll(async () => {
  await service?.kill('SIGTERM');
  await database?.drop();
});

/** The README's walkthrough script, between the ```sh fence after its heading and the next fence. */
function walkthrough(): string {
  const readme = fs.readFileSync('README.md', 'utf8');
  const from = readme.indexOf('```sh', readme.indexOf('### The whole flow with curl')) + '```sh'.length;
  return readme.slice(from, readme.indexOf('```', from));
}

(hasCurl ? test : test.skip)(
  "the README's curl walkthrough takes a newcomer from npm start to an order completed at the POS",
  async () => {
    database = await freshDatabase();
    const port = await freePort();
    service = spawnService({
      PORT: String(port),
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.url,
      SANDBOX: 'on',
      LOG_LEVEL: 'warn',
    });
    const banner = await until(async () => /client_secret:\s+\S+/.test(service!.logs()) && service!.logs(), 30_000);
    const pos = /Sandbox POS and DSP:\s+(http:\/\/\S+)/.exec(banner)![1]!;
    const clientId = /client_id:\s+(\S+)/.exec(banner)![1]!;
    const clientSecret = /client_secret:\s+(\S+)/.exec(banner)![1]!;

    const script = walkthrough();
    const [first, ...rest] = script.trim().split('\n');
    expect(first).toMatch(/^BASE=\S+ POS=\S+ CLIENT_ID=\S+ CLIENT_SECRET=\S+$/);
    const filled = [`BASE=http://127.0.0.1:${port} POS=${pos} CLIENT_ID=${clientId} CLIENT_SECRET=${clientSecret}`, ...rest].join('\n');
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', filled], { timeout: 90_000 });

    // The script's last answer (curl prints no newline after it) is the GraphQL read of the order.
    expect(JSON.parse(stdout.slice(stdout.lastIndexOf('{"data":')).trim())).toEqual({
      data: { order: { status: 'completed', posOrderId: expect.stringMatching(/^pos_/) } },
    });
    expect(stdout).toContain('"menu_provider_ids":["');
  },
  120_000,
);
