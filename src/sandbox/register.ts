// Starts the sandbox peers beside the service and registers them as providers, so a new user
// can walk the whole flow on one machine (`SANDBOX=on`, the default). Their secrets are kept in
// DATA_DIR/sandbox.json so that a restart keeps the grants the service holds valid.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Services } from '../services.js';
import { saveProvider } from '../integrations/providers.js';
import { dspClientIdOf, startSandboxPos, type SandboxPos } from './pos/server.js';
import { startSandboxEventProvider, type SandboxEventProvider } from './event-provider/server.js';

export type SandboxSecrets = { clientId: string; clientSecret: string; webhookSecret: string; tokenSecret: string };

export function sandboxSecrets(dataDir: string): SandboxSecrets {
  const file = path.join(dataDir, 'sandbox.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as SandboxSecrets;
  const secrets = {
    clientId: 'sandbox-client',
    clientSecret: crypto.randomBytes(24).toString('base64url'),
    webhookSecret: crypto.randomBytes(24).toString('base64url'),
    tokenSecret: crypto.randomBytes(24).toString('base64url'),
  };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export type SandboxPeers = { pos: SandboxPos; events: SandboxEventProvider; close: () => Promise<void> };

/** The sandbox event provider as provider `sandbox-events` (Sandbox Dispatch to merchants). */
export async function registerSandboxEvents(services: Services, events: SandboxEventProvider, secrets: SandboxSecrets): Promise<void> {
  await saveProvider(services, {
    source: 'sandbox-events',
    kind: 'event_provider',
    name: 'Sandbox Dispatch',
    base_url: events.url,
    webhook_secret: secrets.webhookSecret,
  });
}

/** The sandbox POS (also the sandbox DSP, as its own OAuth client) as providers `sandbox-pos`
 * and `sandbox-dsp`, which merchants see as Sandbox POS and Sandbox Eats. */
export async function registerSandboxPos(services: Services, pos: SandboxPos, secrets: SandboxSecrets): Promise<void> {
  const common = {
    base_url: pos.url,
    client_id: secrets.clientId,
    client_secret: secrets.clientSecret,
    webhook_secret: secrets.webhookSecret,
  };
  await saveProvider(services, {
    ...common,
    source: 'sandbox-pos',
    kind: 'pos',
    name: 'Sandbox POS',
    connection_notices: true,
    notification_scope: ['menu.publish_success', 'menu.publish_failure'],
    order_updates: true,
  });
  await saveProvider(services, {
    ...common,
    client_id: dspClientIdOf(secrets.clientId),
    source: 'sandbox-dsp',
    kind: 'dsp',
    name: 'Sandbox Eats',
  });
}

/** The sandbox peers beside a service: the POS at the service's port + 100 and the event
 * provider at + 101 (4100 and 4101 beside `npm start`'s 4000), so that their addresses stay
 * the same from one start to the next; any free ports when the service's is 0 or those are taken. */
export async function startSandboxPeers(services: Services): Promise<SandboxPeers> {
  const secrets = sandboxSecrets(services.config.dataDir);
  const beside = (offset: number) => (services.config.port && services.config.port + offset <= 65535 ? services.config.port + offset : 0);
  const pos = await startSandboxPos({ ...secrets, port: beside(100), service: { url: services.publicUrl, source: 'sandbox-pos' } });
  await registerSandboxPos(services, pos, secrets);
  const events = await startSandboxEventProvider({
    port: beside(101),
    secret: secrets.webhookSecret,
    service: { url: services.publicUrl, provider: 'sandbox-events' },
    stepMs: services.config.sandboxDeliveryStepMs,
  });
  await registerSandboxEvents(services, events, secrets);
  return {
    pos,
    events,
    close: async () => {
      await pos.close();
      await events.close();
    },
  };
}
