// A merchant ready to take orders: POS and DSP onboarded, the US location ingested and bound to
// a DSP store, and the sandbox event provider registered.
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { startSandboxEventProvider, type SandboxEventProvider } from '../../src/sandbox/event-provider/server.js';
import { registerSandboxEvents, type SandboxSecrets } from '../../src/sandbox/register.js';
import { bind, completeOnboarding, createOrg, ingest } from './flows.js';
import type { TestService } from './service.js';

export type OrderSetup = { token: string; partnerId: string; orgId: string; tid: string; locationId: string; storeId: string; posOnboardingId: string };

export async function startEvents(service: TestService, secrets: SandboxSecrets): Promise<SandboxEventProvider> {
  const events = await startSandboxEventProvider({ secret: secrets.webhookSecret, service: { url: service.url, provider: 'sandbox-events' }, driverDelayMs: 50 });
  await registerSandboxEvents(service.services, events, secrets);
  return events;
}

export async function merchantTakingOrders(service: TestService, storeId = `store-${Math.random().toString(36).slice(2, 8)}`): Promise<OrderSetup> {
  const partner = await service.partner();
  const { orgId } = await createOrg(service.url, partner.token);
  const pos = await completeOnboarding(service.url, partner.token, orgId, 'pos');
  const [locationId] = await ingest(service.url, partner.token, pos._id, [`loc_2_${pos.integration_id}`]);
  const dsp = await completeOnboarding(service.url, partner.token, orgId, 'dsp');
  await bind(service.url, partner.token, dsp._id, locationId!, storeId);
  return { token: partner.token, partnerId: partner.partnerId, orgId, tid: pos.integration_id, locationId: locationId!, storeId, posOnboardingId: pos._id };
}

/** The sandbox DSP places an order (any field given wins); the service's answer comes back. */
export async function placeOrder(pos: SandboxPos, storeId: string, order: Record<string, unknown> = {}) {
  const res = await fetch(`${pos.url}/v1/_sandbox/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ dsp_store_id: storeId, order }) });
  return (await res.json()) as { dsp_order_id: string; status: number; body: { order_id?: string; status?: string; duplicate?: boolean; code?: string; message?: string } };
}

export async function posStatus(pos: SandboxPos, orderId: string, status: string) {
  const res = await fetch(`${pos.url}/v1/_sandbox/order-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order_id: orderId, status }) });
  return (await res.json()) as { status: number; body: any };
}

export async function until<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
