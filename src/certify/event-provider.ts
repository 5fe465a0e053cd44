// The conformance kit's event-provider checks (docs/event-providers.md, "Certify your server"): the
// event handler, called as the service calls it (order.confirmed, a repeat of it, order.updated),
// signed with X-Service-Signature; and, with --wait-webhook, the webhooks the provider sends back
// to the kit's URL (its driver, a step of the delivery), and no second driver for the repeat.
// What the service takes, the kit passes: any 2xx is an answer the outbox takes.
import crypto from 'node:crypto';
import { send, type ProviderResponse } from '../integrations/provider-client.js';
import { providerUrl } from '../integrations/providers.js';
import { signBody } from '../common/signatures.js';
import { runChecks, type Arrival, type CheckRun, type Report, type Skipped } from './kit.js';
import { answered, sampleOrder, signedBy, WITHOUT_WAIT, webhookDetail, webhookType, type KitOptions } from './pos.js';

/** After the first driver arrives, how long the kit still listens for a second one (a provider
 * that assigns one per order.confirmed sends it about as fast as the first). */
const SECOND_DRIVER_GRACE_MS = 2000;

const ok2xx = (response: ProviderResponse) => response.status >= 200 && response.status < 300;

export async function certifyEventProvider(options: KitOptions): Promise<Report> {
  const { caller, provider, listener, say } = options;
  const secret = provider.webhookSecret;
  if (!secret) throw new Error('an event provider is certified with its webhook secret: give --webhook-secret (or register it with one)');
  const url = providerUrl(provider, 'events');
  const location = 'loc_certify';
  const order = sampleOrder(location, 'merchant_managed_delivery');
  const waitMs = options.waitWebhookSeconds === undefined ? undefined : options.waitWebhookSeconds * 1000;
  if (waitMs !== undefined)
    say(
      `Point your webhooks at ${listener.url} (any path under it, such as ${listener.url}/v1/webhooks/event-providers/{source} as the service has it), signed with your webhook secret (the one the kit was given; it is not printed). The kit sends order.confirmed for order ${order.id} at location ${location} and waits up to ${options.waitWebhookSeconds} s for its order.assign.driver and an order.delivery_status.updated`,
    );
  const event = (type: string, object: unknown) => JSON.stringify({ location_id: location, reference_id: order.id, type, order: object });
  const confirmed = event('order.confirmed', order);
  const call = (body: string, key: string, signature?: string) =>
    send(caller, 'POST', url, {
      headers: { 'content-type': 'application/json', 'idempotency-key': key, ...(signature ? { 'x-service-signature': signature } : {}) },
      body,
      retries: 0,
    });
  const confirmKey = `order.confirmed:${order.id}`;
  const rule = 'X-Service-Signature is HMAC-SHA256 of the body with the provider secret, lower-case hex';

  /** The provider's webhooks about the sample order, of one type. */
  const about = (type: string) => (arrival: Arrival) => {
    if (webhookType(arrival, 'order.assign.driver') !== type) return false;
    const object = (JSON.parse(arrival.body.toString('utf8')) as { object?: { order_id?: unknown } }).object;
    return object?.order_id === order.id;
  };
  let firstConfirmation: ProviderResponse | undefined;
  let repeat: ProviderResponse | undefined;

  const checks: [string[], CheckRun][] = [
    [
      ['events.signature_required'],
      async (record) => {
        const probe = event('order.confirmed', { ...order, id: `${order.id}_unsigned` });
        const unsigned = await call(probe, `certify:unsigned:${crypto.randomUUID()}`);
        const forged = await call(probe, `certify:forged:${crypto.randomUUID()}`, signBody(probe, `not-${crypto.randomUUID()}`));
        const refused = (status: number) => status >= 400 && status < 500;
        record(
          'events.signature_required',
          refused(unsigned.status) && refused(forged.status),
          `POST ${url} order.confirmed without X-Service-Signature → ${unsigned.status}; with a wrong one → ${forged.status}. Rule: ${rule}; anything else is refused with a 4xx`,
        );
      },
    ],
    [
      ['events.order_confirmed'],
      async (record) => {
        firstConfirmation = await call(confirmed, confirmKey, signBody(confirmed, secret));
        const advice =
          firstConfirmation.status === 201 && typeof firstConfirmation.body === 'string' ? '' : ' (SPEC: 201 with a JSON string)';
        record(
          'events.order_confirmed',
          ok2xx(firstConfirmation),
          `POST ${url} {location_id, reference_id, type: order.confirmed, order}, signed, Idempotency-Key ${confirmKey} → ${answered(firstConfirmation)}. Rule: a 2xx takes it${advice}`,
        );
      },
    ],
    [
      ['events.idempotent'],
      async (record) => {
        repeat = await call(confirmed, confirmKey, signBody(confirmed, secret));
        const both = `the same order.confirmed again under Idempotency-Key ${confirmKey} → ${firstConfirmation?.status} then ${repeat.status}`;
        const taken = Boolean(firstConfirmation && ok2xx(firstConfirmation)) && ok2xx(repeat);
        // Whether a second driver came is known only after the webhooks' wait (below).
        if (waitMs === undefined)
          record(
            'events.idempotent',
            taken,
            `${both}; drivers not observed (give --wait-webhook). Rule: a repeat is answered 2xx and assigns no second driver`,
          );
      },
    ],
    [
      ['events.order_updated'],
      async (record) => {
        const updated = event('order.updated', { id: order.id, status: 'ready_for_pickup', delivery_status: 'pending' });
        const key = `dispatch:${order.id}:2`;
        const answer = await call(updated, key, signBody(updated, secret));
        record(
          'events.order_updated',
          ok2xx(answer),
          `POST ${url} {location_id, reference_id, type: order.updated, order: {id, status: ready_for_pickup, delivery_status}}, signed, Idempotency-Key ${key} → ${answered(answer)}. Rule: a 2xx takes it`,
        );
      },
    ],
  ];
  const skipped: Skipped[] = [];
  if (waitMs !== undefined) {
    checks.push([
      ['webhook.assign_driver', 'webhook.delivery_status', 'events.idempotent'],
      async (record) => {
        const driver = await listener.webhook(about('order.assign.driver'), waitMs);
        record('webhook.assign_driver', signedBy(driver, secret), webhookDetail(driver, 'order.assign.driver'));
        const step = await listener.webhook(about('order.delivery_status.updated'), waitMs);
        record('webhook.delivery_status', signedBy(step, secret), webhookDetail(step, 'order.delivery_status.updated'));
        // A second driver for the repeat would have come by now, or within the grace after the first.
        if (driver) await listener.webhook(() => false, Math.max(0, SECOND_DRIVER_GRACE_MS - (Date.now() - driver.at)));
        const drivers = listener.webhooks().filter(about('order.assign.driver')).length;
        const taken = Boolean(firstConfirmation && ok2xx(firstConfirmation)) && Boolean(repeat && ok2xx(repeat));
        record(
          'events.idempotent',
          taken && drivers <= 1,
          `the same order.confirmed again under Idempotency-Key ${confirmKey} → ${firstConfirmation?.status} then ${repeat?.status}; ${drivers} order.assign.driver for order ${order.id} arrived. Rule: a repeat is answered 2xx and assigns no second driver`,
        );
      },
    ]);
  } else {
    skipped.push({ id: 'webhook.assign_driver', detail: WITHOUT_WAIT }, { id: 'webhook.delivery_status', detail: WITHOUT_WAIT });
  }
  return runChecks('event-provider', provider.baseUrl, checks, skipped);
}
