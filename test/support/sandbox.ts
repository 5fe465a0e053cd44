// The sandbox POS (and DSP) as a real peer of a test service, and the merchant's browser walk
// through an onboarding's entry_url.
import crypto from 'node:crypto';
import { registerSandboxPos, sandboxSecrets, type SandboxSecrets } from '../../src/sandbox/register.js';
import { startSandboxPos, type SandboxPos } from '../../src/sandbox/pos/server.js';
import type { TestService } from './service.js';
import { spawnBuilt } from './build.js';
import { until } from './wait.js';

export function testSecrets(): SandboxSecrets {
  const random = () => crypto.randomBytes(16).toString('hex');
  return { clientId: 'sandbox-client', clientSecret: random(), webhookSecret: random(), tokenSecret: random() };
}

export async function startPos(service: TestService, secrets = testSecrets(), port?: number): Promise<SandboxPos> {
  const pos = await startSandboxPos({ ...secrets, port, service: { url: service.url, source: 'sandbox-pos' } });
  await registerSandboxPos(service.services, pos, secrets);
  return pos;
}

/** What a sandbox peer in a process of its own received: its calls, by path, with their headers and body. */
export type PeerCall = { path: string; headers: Record<string, string>; body: unknown };

/** The sandbox POS (and DSP) in a process of its own, run from the build, registered with the
 * service and calling it back: for a test whose measure must not count the peer's own work (its
 * load, the megabytes it parses). */
export async function posProcess(service: TestService) {
  const dataDir = service.database.dataDir;
  const child = spawnBuilt('sandbox/pos/main.js', [], {
    env: { ...process.env, DATA_DIR: dataDir, SANDBOX_POS_PORT: '0', SANDBOX_SERVICE_URL: service.url },
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => process.stderr.write(chunk));
  const url = await until(async () => /sandbox POS at (\S+)/.exec(out)?.[1], 60_000);
  await registerSandboxPos(service.services, { url } as never, sandboxSecrets(dataDir));
  return {
    url,
    received: async () => ((await (await fetch(`${url}/v1/_sandbox/received`)).json()) as { received: PeerCall[] }).received,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

export { authorizeInBrowser } from '../../src/sandbox/browser.js';

/** A sandbox peer's control (`POST /v1/_sandbox/<what>`): its JSON answer (for those that send the
 * service a webhook, `{status, body}` of the service's answer). */
export async function control(
  peer: { url: string },
  what: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${peer.url}/v1/_sandbox/${what}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { status: number; body: Record<string, unknown> };
}
