// The sandbox POS (and DSP) as a real peer of a test service, and the merchant's browser walk
// through an onboarding's entry_url.
import crypto from 'node:crypto';
import { registerSandboxPos, type SandboxSecrets } from '../../src/sandbox/register.js';
import { startSandboxPos, type SandboxPos } from '../../src/sandbox/pos/server.js';
import type { TestService } from './service.js';

export function testSecrets(): SandboxSecrets {
  const random = () => crypto.randomBytes(16).toString('hex');
  return { clientId: 'sandbox-client', clientSecret: random(), webhookSecret: random(), tokenSecret: random() };
}

export async function startPos(service: TestService, secrets = testSecrets(), port?: number): Promise<SandboxPos> {
  const pos = await startSandboxPos({ ...secrets, port, service: { url: service.url, source: 'sandbox-pos' } });
  await registerSandboxPos(service.services, pos, secrets);
  return pos;
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
