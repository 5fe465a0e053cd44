// A merchant ready to take orders: POS and DSP onboarded, the US location ingested and bound to
// a DSP store, and the sandbox event provider registered.
import { spawnMain } from './build.js';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import type { ExecutionResult } from 'graphql';
import type { Sink } from 'graphql-ws';
import { sandboxOrder, type SandboxPos } from '../../src/sandbox/pos/server.js';
import type { CustomerOrder } from '../../src/sandbox/pos/dsp-channel.js';
import { signBody } from '../../src/common/signatures.js';
import { startSandboxEventProvider, type SandboxEventProvider } from '../../src/sandbox/event-provider/server.js';
import { registerSandboxEvents, type SandboxSecrets } from '../../src/sandbox/register.js';
import { bind, completeOnboarding, createOrg, dspStores, ingest } from './flows.js';
import { request, startTestService, type TestService } from './service.js';
import { control, startPos, testSecrets } from './sandbox.js';
import { until, workerSays, type Refusal } from './wait.js';

// Tests import their waits from here too, with the flows they wait on.
export { until, workerSays, type Refusal };

/** A date (YYYY-MM-DD) as an order's refusal says it, from the platform's own words (Intl), with
 * its year when it is not the year of `from`: "Sat, Nov 28". */
export const dayInWords = (date: string, from = date) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    ...(date.slice(0, 4) === from.slice(0, 4) ? {} : { year: 'numeric' }),
    timeZone: 'UTC',
  });

export type OrderSetup = {
  token: string;
  partnerId: string;
  orgId: string;
  providerOrgId: string;
  tid: string;
  locationId: string;
  storeId: string;
  posOnboardingId: string;
};

export async function startEvents(service: TestService, secrets: SandboxSecrets): Promise<SandboxEventProvider> {
  const events = await startSandboxEventProvider({
    secret: secrets.webhookSecret,
    service: { url: service.url, provider: 'sandbox-events' },
    driverDelayMs: 50,
  });
  await registerSandboxEvents(service.services, events, secrets);
  return events;
}

export async function merchantTakingOrders(
  service: Pick<TestService, 'url' | 'partner'>,
  partner: { token: string; partnerId: string } | Promise<{ token: string; partnerId: string }> = service.partner(),
): Promise<OrderSetup> {
  partner = await partner;
  const { orgId, providerOrgId } = await createOrg(service.url, partner.token);
  const pos = await completeOnboarding(service.url, partner.token, orgId, 'pos');
  const [locationId] = await ingest(service.url, partner.token, pos._id, [`loc_2_${pos.integration_id}`]);
  const dsp = await completeOnboarding(service.url, partner.token, orgId, 'dsp');
  const storeId = (await dspStores(service.url, partner.token, dsp._id)).austin!;
  await bind(service.url, partner.token, dsp._id, locationId!, storeId);
  return {
    token: partner.token,
    partnerId: partner.partnerId,
    orgId,
    providerOrgId,
    tid: pos.integration_id,
    locationId: locationId!,
    storeId,
    posOnboardingId: pos._id,
  };
}

/** What a file about orders starts with: the service (started with `env`), the sandbox POS, the
 * sandbox event provider when `events`, and a merchant taking orders, whose store has received
 * its menus when `menus`. `close` stops what was started, and a step that fails stops what the
 * steps before it started. */
export async function startOrdersWorld({
  env = {},
  secrets = testSecrets(),
  events: withEvents = false,
  menus = false,
}: {
  env?: Record<string, string>;
  secrets?: SandboxSecrets;
  events?: boolean;
  menus?: boolean;
} = {}) {
  const started: { close: () => Promise<void> }[] = [];
  const close = async () => {
    for (const one of started.reverse()) await one.close();
  };
  try {
    const service = await startTestService(env);
    started.push({ close: () => service.stop() });
    const pos = await startPos(service, secrets);
    started.push(pos);
    const events = withEvents ? await startEvents(service, secrets) : undefined;
    if (events) started.push(events);
    const merchant = await merchantTakingOrders(service);
    if (menus) {
      await control(pos, 'catalog-updated', { location_id: `loc_2_${merchant.tid}` });
      await catalogReceived(service, merchant.locationId);
    }
    return { service, pos, events, merchant, close };
  } catch (error) {
    await close();
    throw error;
  }
}
export type OrdersWorld = Awaited<ReturnType<typeof startOrdersWorld>>;

/** Waits until each bound store of a location has received its latest catalog: the intake judges
 * a store's orders by the catalog it received (its menus, their hours, the holidays). */
export const catalogReceived = (service: TestService, locationId: string) =>
  until(async () => {
    const { db } = service.services;
    const latest = await db.catalogVersion.findFirst({ where: { locationId }, orderBy: { version: 'desc' }, select: { id: true } });
    const stores = await db.store.findMany({ where: { locationId, status: 'APPROVED' }, select: { id: true } });
    const received = await Promise.all(
      stores.map((store) =>
        db.menuPublish.findFirst({ where: { storeId: store.id, status: 'published' }, orderBy: { createdAt: 'desc' } }),
      ),
    );
    return !!latest && received.every((publish) => publish?.catalogVersionId === latest.id);
  });

/** The organization names its event provider (PUT /v1/onboarding/org/{id}/event-provider). */
export async function nameEventProvider(service: TestService, m: Pick<OrderSetup, 'orgId' | 'token'>, source: string | null) {
  const res = await request(service.url, 'PUT', `/v1/onboarding/org/${m.orgId}/event-provider`, { body: { source }, token: m.token });
  if (res.status !== 200) throw new Error(`event-provider: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { org_id: string; event_provider: string | null };
}

/** A location of a merchant in one currency, bound to its DSP store, its catalog published there. */
export type MarketSetup = { locationId: string; storeId: string; posLocationId: string };

/**
 * A merchant with a location in each of the sandbox's currencies, each bound to its DSP store and
 * its catalog published there (so that orders are checked against it, and held to its currency):
 * Austin in dollars, Berlin in euros, Shibuya in yen.
 */
export async function merchantInThreeCurrencies(
  service: TestService,
  pos: SandboxPos,
  partner?: { token: string; partnerId: string },
): Promise<{ token: string; orgId: string; providerOrgId: string; tid: string } & Record<'usd' | 'eur' | 'jpy', MarketSetup>> {
  const { token } = partner ?? (await service.partner());
  const { orgId, providerOrgId } = await createOrg(service.url, token);
  const posOnboarding = await completeOnboarding(service.url, token, orgId, 'pos');
  const tid = posOnboarding.integration_id;
  const posLocations = { usd: `loc_2_${tid}`, eur: `loc_${tid}_de`, jpy: `loc_${tid}_jp` };
  const ingested = await ingest(service.url, token, posOnboarding._id, Object.values(posLocations));
  const dsp = await completeOnboarding(service.url, token, orgId, 'dsp');
  const stores = await dspStores(service.url, token, dsp._id);
  const markets = {} as Record<'usd' | 'eur' | 'jpy', MarketSetup>;
  for (const [index, [currency, store]] of (
    [
      ['usd', stores.austin!],
      ['eur', stores.berlin!],
      ['jpy', stores.tokyo!],
    ] as const
  ).entries()) {
    const connection = await bind(service.url, token, dsp._id, ingested[index]!, store);
    const posLocationId = posLocations[currency];
    await fetch(`${pos.url}/v1/_sandbox/catalog-updated`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ location_id: posLocationId }),
    });
    await until(() => service.services.db.menuPublish.findFirst({ where: { storeId: connection, status: 'published' } }));
    markets[currency] = { locationId: ingested[index]!, storeId: store, posLocationId };
  }
  return { token, orgId, providerOrgId, tid, ...markets };
}

/** The sandbox DSP places an order (any field given wins); the service's answer comes back. */
export async function placeOrder(pos: SandboxPos, storeId: string, order: Record<string, unknown> = {}) {
  const res = await fetch(`${pos.url}/v1/_sandbox/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ dsp_store_id: storeId, order }),
  });
  return (await res.json()) as {
    dsp_order_id: string;
    status: number;
    body: { order_id?: string; status?: string; failure_reason?: string; duplicate?: boolean; code?: string; message?: string };
  };
}

/** The order as the sandbox DSP's customer sees it (the events the service sent it), once it has
 * `count` events. */
export const atDsp = (pos: SandboxPos, dspOrderId: string, count = 1) =>
  until(async () => {
    const order = (await (await fetch(`${pos.url}/v1/_sandbox/orders/${dspOrderId}`)).json()) as CustomerOrder;
    return order.events?.length >= count ? order : null;
  });

export async function posStatus(pos: SandboxPos, orderId: string, status: string) {
  const res = await fetch(`${pos.url}/v1/_sandbox/order-status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ order_id: orderId, status }),
  });
  return (await res.json()) as { status: number; body: any };
}

/** A graphql-ws sink whose refusal is not swallowed: `until(…, …, refusal)` fails with it. */
export function sinkOf<T>(next: (data: T) => void): { sink: Sink<ExecutionResult>; refusal: Refusal } {
  const refusal: Refusal = {};
  return {
    refusal,
    sink: {
      next: (result) => next(result.data as T),
      error: (error) => {
        refusal.error = new Error(`the subscription was refused: ${JSON.stringify(error)}`);
      },
      complete: () => undefined,
    },
  };
}

/** Waits until the service holds `count` live subscriptions to a topic: graphql-ws and SSE say
 * nothing once a subscription is in place, and a change made before it would go unseen. */
export const subscribed = (
  service: TestService,
  channel: Parameters<TestService['services']['pubsub']['subscribers']>[0],
  id: string,
  count = 1,
  refusal?: Refusal,
) => until(async () => service.services.pubsub.subscribers(channel, id) >= count, 15_000, refusal);

/** Waits until the service holds at most `count` live subscriptions to a topic: a client's
 * dispose ends its subscription on the server a moment later. */
export const unsubscribed = (
  service: TestService,
  channel: Parameters<TestService['services']['pubsub']['subscribers']>[0],
  id: string,
  count = 0,
) => until(async () => service.services.pubsub.subscribers(channel, id) <= count);

/** A line of a DSP's order: an item or modifier by its catalog id, at a price of one. */
export const orderLine = (service_id: string, price: number, quantity = 1, modifiers: unknown[] = []) => ({
  service_id,
  name: service_id,
  price,
  quantity,
  modifiers,
});

/** A DSP's signed order.created straight to a service instance (as the sandbox DSP sends it). */
export async function sendDspOrder(base: string, webhookSecret: string, storeId: string, order: Record<string, unknown> = {}) {
  const object = sandboxOrder(storeId, order);
  const body = JSON.stringify({ type: 'order.created', object });
  const res = await fetch(`${base}/v1/webhooks/dsp/sandbox-dsp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': crypto.randomUUID(),
      'service-webhook-signature': signBody(body, webhookSecret),
    },
    body,
  });
  return {
    status: res.status,
    body: (await res.json()) as { order_id?: string; status?: string; failure_reason?: string; duplicate?: boolean },
    dspOrderId: object.dsp_order_id,
  };
}

/** The service as an operator runs it: `start`, its own process (from the run's build). */
export function spawnService(env: Record<string, string>) {
  const child = spawnMain(['start'], {
    env: { ...process.env, SANDBOX: 'off', ALLOW_GENERATED_KEYS: 'true', LOG_LEVEL: 'info', ...env },
  });
  let logs = '';
  child.stdout.on('data', (chunk) => (logs += chunk));
  child.stderr.on('data', (chunk) => (logs += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    logs: () => logs,
    // A start that does not finish says why: its output (a build missing, a database refused).
    ready: () =>
      until(async () => logs.includes('GraphQL:') || undefined, 30_000).catch(() => {
        throw new Error(`the service did not start within 30 s; its output:\n${logs.slice(-3000)}`);
      }),
    kill: async (signal: NodeJS.Signals = 'SIGKILL') => {
      child.kill(signal);
      await exited;
    },
  };
}

/** Where the kernel's own choices of port begin (a `listen(0)`, an outgoing connection). */
const EPHEMERAL_FROM = (() => {
  try {
    return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
})();

/**
 * A port free now, for a service started later in a process of its own (which must keep it across
 * restarts). Chosen at random below the kernel's ephemeral range: a port the kernel handed out
 * with `listen(0)` was taken, between the probe and the child's start, by another file's server
 * (EADDRINUSE, seen with six workers on two cores); nothing takes a port there but another such
 * choice. A hundred below the range's start is kept free too: the sandbox listens at PORT + 100.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 10_000 + crypto.randomInt(EPHEMERAL_FROM - 100 - 10_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
