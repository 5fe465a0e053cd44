// The sandbox event provider (docs/event-providers.md): a dispatch company that plays the whole
// delivery leg. It verifies X-Service-Signature on every event (401 otherwise) and answers 201
// with a JSON string; for each order.confirmed, once per order however often it comes, it assigns
// a driver shortly after (the delivery is then enroute_to_pickup), then moves the delivery
// through arrived_at_pickup, enroute_to_dropoff, arrived_at_dropoff and delivered, one step
// every `stepMs` (0: only when told) and at each `POST /v1/_sandbox/deliveries/{order_id}/advance`.
// Each step is a signed webhook to the service. An order.updated that ends the order (completed,
// canceled, failed) ends its delivery.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createPeer, listen, type Peer } from '../peer.js';
import { signBody, verifySignature } from '../../common/signatures.js';

export type SandboxEventProviderOptions = {
  /** Verifies our X-Service-Signature and signs its webhooks to us. */
  secret: string;
  /** Where its webhooks go: the service's URL and this provider's source there. Without it,
   * deliveries wait until it is given (`pointAt`, or `POST /v1/_sandbox/service`). */
  service?: { url: string; provider: string };
  /** How long after order.confirmed the driver is assigned. */
  driverDelayMs?: number;
  /** How long each step of the road takes; 0 (the default): a step only when told to advance. */
  stepMs?: number;
  port?: number;
};

export type SandboxEventProvider = Peer & {
  url: string;
  /** Sends its webhooks to this service from now on, and what waited for one goes out. */
  pointAt: (service: { url: string; provider: string }) => void;
  close: () => Promise<void>;
};

/** The steps of the road after the driver's assignment, in order. */
export const ROAD = ['arrived_at_pickup', 'enroute_to_dropoff', 'arrived_at_dropoff', 'delivered'] as const;

/** The sandbox fleet's driver. */
export const SANDBOX_DRIVER = {
  name: 'Dana Driver',
  phone: { number: '5125550199', code: '+1' },
  source: 'sandbox-fleet',
  vehicle_info: { make: 'Toyota', model: 'Prius', color: 'blue', license_plate: 'SBX-4821' },
};

type Delivery = {
  orderId: string;
  locationId: string;
  /** -1: no driver yet; 0: assigned; 1..ROAD.length: ROAD's step reached. */
  step: number;
  /** Ended: delivered, or the order ended at the service. */
  over: boolean;
  timer?: NodeJS.Timeout;
  /** The step under way: steps go one at a time, in order. */
  busy: Promise<unknown>;
};

/** What the service answered a webhook (status 0: it could not be reached). */
type Answer = { status: number; body: unknown };

const ENDED = new Set(['completed', 'merchant_canceled', 'dsp_canceled', 'failed']);

export async function startSandboxEventProvider(options: SandboxEventProviderOptions): Promise<SandboxEventProvider> {
  const peer = createPeer(
    'the sandbox event provider (provider sandbox-events): a dispatch company that assigns a driver to each order confirmed to it and reports each step of the delivery',
  );
  const { app } = peer;
  const deliveries = new Map<string, Delivery>();
  let service = options.service;
  const stepMs = options.stepMs ?? 0;
  let closed = false;

  /** One signed webhook to the service. */
  const send = async (type: string, object: Record<string, unknown>): Promise<Answer> => {
    const body = JSON.stringify({ type, object });
    try {
      const response = await fetch(`${service!.url}/v1/webhooks/event-providers/${service!.provider}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': crypto.randomUUID(),
          'service-webhook-signature': signBody(body, options.secret),
        },
        body,
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
    } catch (error) {
      return { status: 0, body: { error: (error as Error).message } };
    }
  };

  /** The delivery's next step, sent now; a step the service did not take is tried again at the
   * next one. The service's answer to it. */
  const advance = (delivery: Delivery): Promise<Answer> => {
    const run = delivery.busy.then(async (): Promise<Answer> => {
      if (delivery.over) return { status: 409, body: { error: 'the delivery is over' } };
      if (!service) return { status: 0, body: { error: 'the sandbox event provider was given no service to report to' } };
      const next = delivery.step + 1;
      const address = { location_id: delivery.locationId, order_id: delivery.orderId };
      const answer =
        next === 0
          ? await send('order.assign.driver', { ...address, driver: SANDBOX_DRIVER })
          : await send('order.delivery_status.updated', {
              ...address,
              delivery_status: ROAD[next - 1],
              ...(next < ROAD.length ? { estimated_dropoff_time: Date.now() + (ROAD.length - next) * (stepMs || 5 * 60_000) } : {}),
            });
      if (answer.status >= 200 && answer.status < 300) delivery.step = next;
      // A final order (or one the service no longer gives us) takes no more steps.
      if (delivery.step >= ROAD.length || answer.status === 404 || (answer.body as { code?: string })?.code === 'feature_disabled')
        end(delivery);
      return answer;
    });
    delivery.busy = run.catch(() => undefined);
    return run;
  };

  const end = (delivery: Delivery) => {
    delivery.over = true;
    clearTimeout(delivery.timer);
  };

  /** The next step on the timer: the driver shortly after the confirmation, then each step of
   * the road every stepMs (none when stepMs is 0). Told to advance, the timer starts again. */
  const schedule = (delivery: Delivery) => {
    clearTimeout(delivery.timer);
    if (delivery.over || closed || !service) return;
    const wait = delivery.step < 0 ? (options.driverDelayMs ?? 100) : stepMs;
    if (delivery.step >= 0 && !stepMs) return;
    delivery.timer = setTimeout(() => void advance(delivery).then(() => schedule(delivery)), wait);
  };

  const events = async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.body as Buffer;
    if (!verifySignature(raw, request.headers['x-service-signature'] as string | undefined, options.secret)) {
      return reply.status(401).send({ error: 'invalid_signature', message: 'X-Service-Signature does not match the body' });
    }
    const event = JSON.parse(raw.toString('utf8')) as {
      type?: string;
      location_id?: string;
      reference_id?: string;
      order?: { status?: string };
    };
    const orderId = event.reference_id;
    // One delivery per order: a repeated order.confirmed (the same Idempotency-Key, or a redelivery
    // under a new one) assigns no second driver.
    if (event.type === 'order.confirmed' && orderId && event.location_id && !deliveries.has(orderId)) {
      const delivery: Delivery = { orderId, locationId: event.location_id, step: -1, over: false, busy: Promise.resolve() };
      deliveries.set(orderId, delivery);
      schedule(delivery);
    }
    const delivery = orderId ? deliveries.get(orderId) : undefined;
    if (event.type === 'order.updated' && delivery && ENDED.has(event.order?.status ?? '')) end(delivery);
    return reply.status(201).type('application/json').send(JSON.stringify('accepted'));
  };
  app.register(async (scope) => {
    // The signature covers the exact bytes: keep them.
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post('/v1/events', events);
  });

  app.post<{ Params: { id: string } }>('/v1/_sandbox/deliveries/:id/advance', async (request, reply) => {
    const delivery = deliveries.get(request.params.id);
    if (!delivery) return reply.status(404).send({ error: 'not_found', message: `no order.confirmed for ${request.params.id} came here` });
    if (delivery.over) return reply.status(409).send({ error: 'over', message: `the delivery of ${request.params.id} is over` });
    clearTimeout(delivery.timer);
    const answer = await advance(delivery);
    schedule(delivery);
    return answer;
  });
  app.get<{ Params: { id: string } }>('/v1/_sandbox/deliveries/:id', async (request, reply) => {
    const delivery = deliveries.get(request.params.id);
    if (!delivery) return reply.status(404).send({ error: 'not_found', message: `no order.confirmed for ${request.params.id} came here` });
    const { orderId, locationId, step, over } = delivery;
    return {
      order_id: orderId,
      location_id: locationId,
      driver: step >= 0 ? SANDBOX_DRIVER : null,
      delivery_status: step < 0 ? 'pending' : step === 0 ? 'enroute_to_pickup' : ROAD[step - 1],
      over,
    };
  });

  const pointAt = (target: { url: string; provider: string }) => {
    service = target;
    for (const delivery of deliveries.values()) schedule(delivery);
  };
  app.post<{ Body: { url?: unknown; provider?: unknown } }>('/v1/_sandbox/service', async (request, reply) => {
    const { url, provider } = request.body ?? {};
    if (typeof url !== 'string' || !/^https?:\/\//.test(url) || typeof provider !== 'string' || !provider)
      return reply
        .status(400)
        .send({ error: 'invalid_request', message: 'url (http or https) and provider (your source at the service) are required' });
    pointAt({ url: url.replace(/\/$/, ''), provider });
    return { url, provider };
  });

  const url = await listen(app, options.port);
  return {
    ...peer,
    url,
    pointAt,
    close: async () => {
      closed = true;
      for (const delivery of deliveries.values()) clearTimeout(delivery.timer);
      await app.close();
    },
  };
}
