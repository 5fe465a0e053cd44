// The conformance kit's event-provider checks (docs/pos-vendors.md, "Event providers"): the event handler, called
// as the service calls it, signed with X-Service-Signature, and the driver assignment it sends back.
import crypto from 'node:crypto';
import { send } from '../integrations/provider-client.js';
import { providerUrl } from '../integrations/providers.js';
import { signBody } from '../common/signatures.js';
import { runChecks, type CheckRun, type Report } from './kit.js';
import { answered, sampleOrder, signedEvent, webhookDetail, type KitOptions } from './pos.js';

export async function certifyEventProvider(options: KitOptions): Promise<Report> {
  const { caller, provider, listener, say } = options;
  const secret = provider.webhookSecret;
  if (!secret) throw new Error('an event provider is certified with its webhook secret: give --webhook-secret (or register it with one)');
  const url = providerUrl(provider, 'events');
  const order = sampleOrder('loc_certify');
  const body = JSON.stringify({ location_id: 'loc_certify', reference_id: order.id, type: 'order.confirmed', order });
  const key = `order.confirmed:${order.id}`;
  const call = (signature?: string) =>
    send(caller, 'POST', url, {
      headers: { 'content-type': 'application/json', 'idempotency-key': key, ...(signature ? { 'x-service-signature': signature } : {}) },
      body,
      retries: 0,
    });
  const rule = 'X-Service-Signature is HMAC-SHA256 of the body with the provider secret, lower-case hex';

  const checks: [string[], CheckRun][] = [
    [
      ['events.signature_required'],
      async (record) => {
        const unsigned = await call();
        const forged = await call(signBody(body, `not-${crypto.randomUUID()}`));
        const refused = (status: number) => status >= 400 && status < 500;
        record(
          'events.signature_required',
          refused(unsigned.status) && refused(forged.status),
          `POST ${url} order.confirmed without X-Service-Signature → ${unsigned.status}; with a wrong one → ${forged.status}. Rule: ${rule}; anything else is refused with a 4xx`,
        );
      },
    ],
    [
      ['events.order_confirmed', 'events.idempotent'],
      async (record) => {
        const first = await call(signBody(body, secret));
        record(
          'events.order_confirmed',
          first.status === 201 && typeof first.body === 'string',
          `POST ${url} {location_id, reference_id, type: order.confirmed, order}, signed → ${answered(first)}. Rule: 201 with a JSON string`,
        );
        const second = await call(signBody(body, secret));
        record(
          'events.idempotent',
          first.status >= 200 && first.status < 300 && second.status >= 200 && second.status < 300,
          `the same event again under Idempotency-Key ${key} → ${first.status} then ${second.status}. Rule: a repeat is answered 2xx and assigns no second driver`,
        );
      },
    ],
  ];
  if (options.waitWebhookSeconds !== undefined) {
    checks.push([
      ['webhook.assign_driver'],
      async (record) => {
        say(
          `Send a signed order.assign.driver to ${listener.url}/webhook, signed with your webhook secret (the one the kit was given; it is not printed) (waiting ${options.waitWebhookSeconds} s)`,
        );
        const arrival = await listener.next('/webhook', options.waitWebhookSeconds! * 1000);
        record('webhook.assign_driver', signedEvent(arrival, secret, 'order.assign.driver'), webhookDetail(arrival, 'order.assign.driver'));
      },
    ]);
  }
  return runChecks('event-provider', provider.baseUrl, checks);
}
