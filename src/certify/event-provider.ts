// The conformance kit's event-provider checks (docs/event-providers.md, "5. Certify your server"): the
// event handler, called as the service calls it (order.confirmed, a repeat of it, order.updated),
// signed with X-Service-Signature; and, with --wait-webhook, the webhooks the provider sends back
// to the kit's URL (its driver, the steps of the delivery), each answered as the service would
// answer it, by the service's own rules (the signature, the body, the order and location the kit
// named, forward only), and no second driver for the repeat.
// What the service takes, the kit passes: any 2xx is an answer the outbox takes.
import crypto from 'node:crypto';
import { send, type ProviderResponse } from '../integrations/provider-client.js';
import { providerUrl } from '../integrations/providers.js';
import { signBody } from '../common/signatures.js';
import { DELIVERY_REPORTS, deliveryReport, reported } from '../modules/orders/webhooks.js';
import { judgeReport, type ReportedOrder } from '../modules/orders/service.js';
import { DELIVERY_STATUSES, FINAL_STATUSES } from '../modules/orders/states.js';
import { answered, ok2xx, runChecks, type Arrival, type CheckRun, type KitOptions, type Report, type Skipped } from './kit.js';
import { sampleOrder } from './orders.js';
import { aOrAn, answeringAsTheService, told as toldWith, WITHOUT_WAIT, webhookType } from './webhooks.js';

/** After the first driver arrives, how long the kit still listens for a second one (a provider
 * that assigns one per order.confirmed sends it about as fast as the first). */
const SECOND_DRIVER_GRACE_MS = 2000;

/** The slug a webhook names in the service's path (/v1/webhooks/event-providers/{source}), if it
 * came there. */
const sourceIn = (path: string) => /\/webhooks\/event-providers\/([^/]+)\/?$/.exec(path)?.[1];

export async function certifyEventProvider(options: KitOptions): Promise<Report> {
  const { caller, provider, listener, say } = options;
  const secret = provider.webhookSecret;
  if (!secret) throw new Error('an event provider is certified with its webhook secret: give --webhook-secret (or register it with one)');
  const url = providerUrl(provider, 'events');
  const location = 'loc_certify';
  const order = sampleOrder(location, 'merchant_managed_delivery');
  const waitMs = options.waitWebhookSeconds === undefined ? undefined : options.waitWebhookSeconds * 1000;

  // The test order as the service would hold it once confirmed to the provider: what its webhooks
  // are judged against, and moved by, as they come.
  let held: (ReportedOrder & { id: string }) | undefined;
  const answerAsTheService = answeringAsTheService(secret, DELIVERY_REPORTS, (type, object, arrival) => {
    const update = deliveryReport(type as (typeof DELIVERY_REPORTS)[number], object);
    const source = sourceIn(arrival.path) ?? provider.source;
    const verdict = judgeReport(held && update.orderId === held.id ? held : undefined, source, update);
    if (verdict && held) {
      held.deliveryStatus = verdict.deliveryStatus;
      if (verdict.to) held.status = verdict.to;
      if (verdict.driver) held.driver = verdict.driver;
    }
    return reported(held!);
  });
  listener.answerWith(answerAsTheService);

  if (waitMs !== undefined)
    say(
      `Point your webhooks at ${listener.url} (any path under it, such as ${listener.url}/v1/webhooks/event-providers/{source} as the service has it), signed with your webhook secret (the one the kit was given; it is not printed); the kit answers them as the service would. The kit sends order.confirmed for order ${order.id} at location ${location} and waits up to ${options.waitWebhookSeconds} s in all for its order.assign.driver and an order.delivery_status.updated (then up to ${SECOND_DRIVER_GRACE_MS / 1000} s more for a second driver)`,
    );
  // One deadline for every webhook the kit waits for, from the line that says where to send them.
  const deadline = Date.now() + (waitMs ?? 0);
  const left = () => Math.max(0, deadline - Date.now());

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

  /** The provider's webhooks about the test order, of one type (whatever the kit answered them). */
  const about = (type: string) => (arrival: Arrival) => {
    if (webhookType(arrival) !== type) return false;
    const object = (JSON.parse(arrival.body.toString('utf8')) as { object?: { order_id?: unknown } }).object;
    return object?.order_id === order.id;
  };
  const told = (arrival: Arrival) => toldWith(arrival, secret);
  /** What came that was not about the test order, when nothing about it did. */
  const others = () => {
    const stray = listener.webhooks().filter((a) => !DELIVERY_REPORTS.some((type) => about(type)(a)));
    return stray.length
      ? `; ${stray.length} other webhook(s) came, none naming order ${order.id} as order_id in an order.assign.driver or order.delivery_status.updated; the first: ${told(stray[0]!)}`
      : '';
  };
  const takenRule = (type: string, more: string) =>
    `Rule: ${aOrAn(type)} for the test order (order_id ${order.id}, location_id ${location}${more}), signed with your webhook secret, is taken by the service (2xx)`;

  let firstConfirmation: ProviderResponse | undefined;
  let repeat: ProviderResponse | undefined;
  const idempotentRule = 'Rule: a repeat is answered 2xx and assigns no second driver';
  const repeated = () =>
    `the same order.confirmed again under Idempotency-Key ${confirmKey} → ${firstConfirmation?.status} then ${repeat?.status}`;
  const repeatTaken = () => Boolean(firstConfirmation && ok2xx(firstConfirmation)) && Boolean(repeat && ok2xx(repeat));

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
        held = { id: order.id, status: 'in_progress', deliveryStatus: 'pending', driver: null, dispatchLocationId: location };
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
      async (record, skip) => {
        repeat = await call(confirmed, confirmKey, signBody(confirmed, secret));
        // Whether a second driver came is known only after the webhooks' wait (below); without
        // it, a repeat refused fails, and one taken cannot be told from one that sends a driver.
        if (waitMs !== undefined) return;
        if (repeatTaken())
          skip('events.idempotent', `${repeated()}; drivers not watched, so a second one cannot be ruled out: ${WITHOUT_WAIT}`);
        else record('events.idempotent', false, `${repeated()}. ${idempotentRule}`);
      },
    ],
    [
      ['events.order_updated'],
      async (record) => {
        const status = 'ready_for_pickup';
        const updated = event('order.updated', { id: order.id, status, delivery_status: held!.deliveryStatus });
        if (!FINAL_STATUSES.has(held!.status)) held!.status = status;
        // Any number: the service's is the order's change count, not a count of its updates.
        const key = `dispatch:${order.id}:2`;
        const answer = await call(updated, key, signBody(updated, secret));
        record(
          'events.order_updated',
          ok2xx(answer),
          `POST ${url} {location_id, reference_id, type: order.updated, order: {id, status: ${status}, delivery_status}}, signed, Idempotency-Key ${key} → ${answered(answer)}. Rule: a 2xx takes it`,
        );
      },
    ],
  ];
  const skipped: Skipped[] = [];
  if (waitMs !== undefined) {
    checks.push([
      ['webhook.assign_driver', 'webhook.delivery_status', 'events.idempotent'],
      async (record) => {
        const driver = await listener.webhook(about('order.assign.driver'), left());
        const step = await listener.webhook(about('order.delivery_status.updated'), left());
        // A second driver for the repeat would have come by now, or within the grace after the first.
        if (driver) await listener.webhook(() => false, Math.max(0, driver.at + SECOND_DRIVER_GRACE_MS - Date.now()));
        const waited = `(waited ${options.waitWebhookSeconds} s)`;

        record(
          'webhook.assign_driver',
          Boolean(driver && ok2xx(driver.answer!)),
          `${driver ? told(driver) : `no order.assign.driver for order ${order.id} arrived ${waited}${others()}`}. ${takenRule('order.assign.driver', ', driver.name')}`,
        );
        // Every step that came is judged: the first refused fails the check.
        const steps = listener.webhooks().filter(about('order.delivery_status.updated'));
        const refusedStep = steps.find((a) => !ok2xx(a.answer!));
        const shown = refusedStep ?? step;
        record(
          'webhook.delivery_status',
          Boolean(step) && !refusedStep,
          `${shown ? `${steps.length} came; ${refusedStep ? 'refused' : 'the first'}: ${told(shown)}` : `no order.delivery_status.updated for order ${order.id} arrived ${waited}${others()}`}. ${takenRule('order.delivery_status.updated', `, delivery_status one of ${DELIVERY_STATUSES.join(', ')}, forward only`)}`,
        );
        const drivers = listener.webhooks().filter(about('order.assign.driver')).length;
        record(
          'events.idempotent',
          repeatTaken() && drivers === 1,
          `${repeated()}; ${drivers} order.assign.driver for order ${order.id} arrived${drivers === 0 ? `, so whether the repeat brings a second driver is unknown ${waited}` : ''}. ${idempotentRule}`,
        );
      },
    ]);
  } else {
    skipped.push({ id: 'webhook.assign_driver', detail: WITHOUT_WAIT }, { id: 'webhook.delivery_status', detail: WITHOUT_WAIT });
  }
  return runChecks('event-provider', provider.baseUrl, checks, skipped);
}
