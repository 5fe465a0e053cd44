// The README's "whole flow with curl", run as a newcomer would: the script as the README prints
// it (only its first line, the URLs and credentials, filled in from what `npm start` printed),
// against the service started as `npm start` starts it, with its sandbox peers. It must end
// with the order completed at the POS; and docs/event-providers.md's "Try it" after it, with a
// merchant-delivered order delivered.
import fs from 'node:fs';
import path from 'node:path';
import { OFREPProvider } from '@openfeature/ofrep-provider';
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

/** A document's script: between the ```sh fence after a heading and the next fence. */
function scriptOf(file: string, heading: string): string {
  const text = fs.readFileSync(file, 'utf8');
  const from = text.indexOf('```sh', text.indexOf(heading)) + '```sh'.length;
  return text.slice(from, text.indexOf('```', from));
}
/** The README's walkthrough. */
const walkthrough = () => scriptOf('README.md', '### The whole flow with curl');

(hasCurl ? test : test.skip)(
  "the README's curl walkthrough takes a newcomer from npm start to an order completed at the POS, run after run",
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
    // The sandbox POS sits beside the service, at PORT + 100 unless that port was taken.
    expect(pos).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const script = walkthrough();
    const [first, ...rest] = script.trim().split('\n');
    expect(first).toMatch(/^BASE=\S+ POS=\S+ CLIENT_ID=\S+ CLIENT_SECRET=\S+$/);
    const filled = [`BASE=http://127.0.0.1:${port} POS=${pos} CLIENT_ID=${clientId} CLIENT_SECRET=${clientSecret}`, ...rest].join('\n');
    // Twice against the one service: a newcomer runs it again, and each run ends the same way.
    for (let run = 0; run < 2; run++) {
      const { stdout, stderr } = await promisify(execFile)('bash', ['--norc', '-euo', 'pipefail', '-c', filled], { timeout: 90_000 });
      // The script's last answer (curl prints no newline after it) is the GraphQL read of the order.
      expect(JSON.parse(stdout.slice(stdout.lastIndexOf('{"data":')).trim())).toEqual({
        data: { order: { status: 'completed', posOrderId: expect.stringMatching(/^pos_/) } },
      });
      expect(stdout).toContain('"menu_provider_ids":["');
      expect(stderr).toBe('');
    }

    // docs/event-providers.md goes on from there: a merchant-delivered order, driven to the door
    // through the sandbox event provider that npm start printed.
    const events = /Sandbox event provider:\s+(http:\/\/\S+)/.exec(banner)![1]!;
    const [eventsLine, ...delivery] = scriptOf('docs/event-providers.md', '### Try it').trim().split('\n');
    expect(eventsLine).toMatch(/^EVENTS=\S+ /);
    const { stdout, stderr } = await promisify(execFile)(
      'bash',
      ['--norc', '-euo', 'pipefail', '-c', [filled, `EVENTS=${events}`, ...delivery].join('\n')],
      {
        timeout: 90_000,
      },
    );
    expect(JSON.parse(stdout.slice(stdout.lastIndexOf('{"data":')).trim())).toEqual({
      data: {
        order: {
          status: 'completed',
          deliveryStatus: 'delivered',
          driver: { name: 'Dana Driver', vehicleInfo: { make: 'Toyota', model: 'Prius' } },
        },
      },
    });
    expect(stderr).toBe('');
  },
  200_000,
);

(hasCurl ? test : test.skip)(
  "an OFREP provider given exactly the banner's OFREP address evaluates a flag defined as the README says",
  async () => {
    const banner = service!.logs();
    const baseUrl = /OFREP baseUrl:\s+(\S+)/.exec(banner)![1]!;
    const clientId = /client_id:\s+(\S+)/.exec(banner)![1]!;
    const clientSecret = /client_secret:\s+(\S+)/.exec(banner)![1]!;
    const { partner_id: partnerId } = JSON.parse(fs.readFileSync(path.join(database.dataDir, 'demo-partner.json'), 'utf8'));
    // The README's command, against the service's data.
    await promisify(execFile)(
      'npm',
      [
        'run',
        '-s',
        'cli',
        '--',
        'flags',
        'define',
        '--partner',
        partnerId,
        '--flag',
        'new-checkout',
        '--variations',
        '[true,false]',
        '--on',
        '0',
        '--off',
        '1',
        '--fallthrough',
        '0',
      ],
      { env: { ...process.env, DATA_DIR: database.dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'silent' } },
    );
    const { access_token: token } = (await (
      await fetch(`${baseUrl}/v1/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
      })
    ).json()) as { access_token: string };
    const provider = new OFREPProvider({ baseUrl, headers: [['Authorization', `Bearer ${token}`]] });
    const answer = await provider.resolveBooleanEvaluation('new-checkout', false, { targetingKey: 'org-7' });
    expect(answer).toMatchObject({ value: true, reason: 'DEFAULT' });
    expect(answer.errorCode).toBeUndefined();
  },
  60_000,
);
