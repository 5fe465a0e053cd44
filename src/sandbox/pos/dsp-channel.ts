// The sandbox DSP as a delivery platform hears the service (docs/dsp-channels.md): it takes the
// events the service sends at POST /v1/events, checks their X-Service-Signature (401 otherwise),
// drops a repeat by its Idempotency-Key, and keeps each order as the platform's customer sees it
// (GET /v1/_sandbox/orders/{dsp_order_id}) and each store as the platform shows it
// (GET /v1/_sandbox/stores/{store_id}), its hours as the last menus it received say.
import type { FastifyInstance } from 'fastify';
import { verifySignature } from '../../common/signatures.js';

type Event = { type: string; store_id?: string; created_at?: number; data?: Record<string, unknown> };
/** An order as the platform's customer sees it. */
export type CustomerOrder = {
  dsp_order_id: string;
  /** placed, then accepted or failed, then the statuses notified, or canceled. */
  status: string;
  failure_reason: string | null;
  events: { type: string; sequence: number; data: Record<string, unknown> }[];
};
/** A store's hours as the platform shows them: its menus' schedules and its location's holidays,
 * on that location's clock (null before it received menus). */
export type StoreHours = {
  timezone: string | null;
  menus: { provider_id: string; name?: string; schedule?: unknown }[];
  holidays: unknown[];
};
/** A store as the platform shows it. */
export type StoreState = {
  store_id: string;
  paused: boolean;
  paused_until: number | null;
  snoozed_item_ids: string[];
  hours: StoreHours | null;
};

/** How each order event changes what the customer sees. */
const ORDER_STATUS: Record<string, (data: Record<string, unknown>) => string> = {
  'location.order.accept': () => 'accepted',
  'location.order.fail': () => 'failed',
  'location.order.notify_status_change': (data) => String(data.status),
  'location.order.cancel': () => 'canceled',
};

export function dspChannel(app: FastifyInstance, webhookSecret: string, verifyBearer: (authorization: string | undefined) => boolean) {
  const orders = new Map<string, CustomerOrder>();
  const stores = new Map<string, StoreState>();
  const seen = new Set<string>();
  const orderOf = (dspOrderId: string) => {
    const order = orders.get(dspOrderId) ?? { dsp_order_id: dspOrderId, status: 'placed', failure_reason: null, events: [] };
    orders.set(dspOrderId, order);
    return order;
  };
  const storeOf = (storeId: string) => {
    const store = stores.get(storeId) ?? { store_id: storeId, paused: false, paused_until: null, snoozed_item_ids: [], hours: null };
    stores.set(storeId, store);
    return store;
  };

  app.register(async (scope) => {
    // The signature covers the exact bytes: keep them.
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post('/v1/events', async (request, reply) => {
      const raw = request.body as Buffer;
      if (!verifySignature(raw, request.headers['x-service-signature'] as string | undefined, webhookSecret))
        return reply.status(401).send({ error: 'invalid_signature', message: 'X-Service-Signature does not match the body' });
      if (request.headers.authorization !== undefined && !verifyBearer(request.headers.authorization))
        return reply.status(401).send({ error: 'invalid_token' });
      const key = request.headers['idempotency-key'];
      if (typeof key === 'string' && seen.has(key)) return { received: true, duplicate: true };
      if (typeof key === 'string') seen.add(key);
      const event = JSON.parse(raw.toString('utf8')) as Event;
      const data = event.data ?? {};
      const status = ORDER_STATUS[event.type];
      if (status && typeof data.dsp_order_id === 'string') {
        const order = orderOf(data.dsp_order_id);
        order.events.push({ type: event.type, sequence: Number(data.sequence), data });
        order.status = status(data);
        if (event.type === 'location.order.fail') order.failure_reason = String(data.failure_reason);
      } else if (event.store_id) applyToStore(storeOf(event.store_id), event.type, data);
      return { received: true };
    });
  });
  app.get<{ Params: { id: string } }>('/v1/_sandbox/orders/:id', async (request, reply) => {
    const order = orders.get(request.params.id);
    return order ?? reply.status(404).send({ error: 'not_found', message: `no order ${request.params.id}` });
  });
  // As the platform shows it now: a pause with an end is over once the end has passed (the
  // platform reopens the store by itself; no event says so).
  app.get<{ Params: { id: string } }>('/v1/_sandbox/stores/:id', async (request) => {
    const store = storeOf(request.params.id);
    const over = store.paused_until !== null && store.paused_until <= Date.now();
    return over ? { ...store, paused: false, paused_until: null } : store;
  });

  return {
    /** Menus published to a store (POST /v1/menus): the hours it shows are theirs from now on. */
    menus: (body: unknown) => {
      const { store_id, timezone, catalog } = (body ?? {}) as {
        store_id?: unknown;
        timezone?: unknown;
        catalog?: { menu?: StoreHours['menus']; holidays?: unknown[] };
      };
      if (typeof store_id !== 'string') return;
      storeOf(store_id).hours = {
        timezone: typeof timezone === 'string' ? timezone : null,
        menus: (catalog?.menu ?? []).map(({ provider_id, name, schedule }) => ({ provider_id, name, ...(schedule ? { schedule } : {}) })),
        holidays: catalog?.holidays ?? [],
      };
    },
    /** The platform placed an order: its customer sees it `placed` until the service says more. */
    placed: (dspOrderId: string) => void orderOf(dspOrderId),
    reset: () => {
      orders.clear();
      stores.clear();
      seen.clear();
    },
  };
}

/** A store's events: pauses and snoozes, each with an optional end (when the platform lifts it
 * by itself). */
function applyToStore(store: StoreState, type: string, data: Record<string, unknown>): void {
  const until = typeof data.until_ms === 'number' ? data.until_ms : null;
  const items = Array.isArray(data.item_ids) ? data.item_ids.filter((id): id is string => typeof id === 'string') : [];
  if (type === 'location.pause') Object.assign(store, { paused: true, paused_until: until });
  if (type === 'location.resume') Object.assign(store, { paused: false, paused_until: null });
  if (type === 'location.items.snooze') store.snoozed_item_ids = [...new Set([...store.snoozed_item_ids, ...items])];
  if (type === 'location.items.unsnooze') store.snoozed_item_ids = store.snoozed_item_ids.filter((id) => !items.includes(id));
}
