// The conformance kit's DSP checks (docs/dsp-channels.md, "Certify your platform"): the OAuth hop
// and the token call as the service makes them (./oauth.ts), the stores the platform lists, the
// menus of a test catalog to one of them (signed, with the merchant's token), each event of the
// channel to its events path (signed, with the token; the same Idempotency-Key again taken as
// well), every body made by the service's own code; and, with --wait-webhook, a signed
// order.created from the platform, read and answered as the service reads and answers it, its
// sums included.
import crypto from 'node:crypto';
import { send, type ProviderResponse } from '../integrations/provider-client.js';
import { providerUrl, type Operation } from '../integrations/providers.js';
import { signBody } from '../common/signatures.js';
import { AppError } from '../common/errors.js';
import { messageKey } from '../delivery/outbox.js';
import { menusBody } from '../modules/catalog/peers.js';
import { readCatalog } from '../modules/catalog/validate.js';
import { accepted, dspEvent, failed, statusEvent, type DspEventType, type Told } from '../modules/orders/peers.js';
import { incoming } from '../modules/orders/webhooks.js';
import { sumsProblem } from '../modules/orders/sums.js';
import { storeEventBody, type StoreEventData, type StoreEventType } from '../modules/stores/peers.js';
import {
  answered,
  listedTarget,
  locationsCheck,
  ok2xx,
  runChecks,
  type CheckRun,
  type KitOptions,
  type Listed,
  type Report,
  type Skipped,
} from './kit.js';
import { oauthChecks, type Grant } from './oauth.js';
import { certifyOrderId, sampleOrder } from './orders.js';
import { answeringAsTheService, ofType, signing, WITHOUT_WAIT, webhookDetail } from './webhooks.js';

/** The webhooks a DSP sends the service (docs/dsp-channels.md, "Orders in"). */
const DSP_WEBHOOKS = ['order.created', 'order.canceled', 'store.status'] as const;

/** The catalog the kit publishes: a menu with its hours and one without, an item with a required
 * choice, a tax, a short day and a closed one (docs/pos-vendors.md, "3. The catalog"). */
const CATALOG = {
  default_language: 'en-US',
  currency: 'usd',
  menu: [
    { provider_id: 'menu_certify_all_day', name: 'All Day', category_ids: ['cat_certify_mains'] },
    {
      provider_id: 'menu_certify_lunch',
      name: 'Lunch',
      category_ids: ['cat_certify_mains'],
      schedule: { monday: ['11:00-15:00'], friday: ['11:00-02:00'] },
    },
  ],
  category: [{ provider_id: 'cat_certify_mains', name: 'Mains', item_ids: ['item_certify'] }],
  item_family: [],
  item: [
    { provider_id: 'item_certify', name: 'Margherita', price: 1200, modifier_group_ids: ['mg_certify_size'], tax_ids: ['tax_certify'] },
  ],
  modifier_group: [
    { provider_id: 'mg_certify_size', name: 'Size', min_selections: 1, max_selections: 1, modifier_ids: ['mod_certify_large'] },
  ],
  modifier: [{ provider_id: 'mod_certify_large', name: 'Large', price: 300 }],
  tax: [{ provider_id: 'tax_certify', name: 'Sales tax', rate: 8.25, inclusive: false }],
  tax_rate: 8.25,
  holidays: [
    { date: '2026-12-24', name: 'Christmas Eve', hours: ['10:00-14:00'] },
    { date: '2026-12-25', name: 'Christmas Day', closed: true },
  ],
};

/** The store events a DSP receives (docs/dsp-channels.md, "Stores that stop and start"), with
 * what each says (an end an hour from `now`). */
const storeEvents = (now: number): [StoreEventType, StoreEventData][] => [
  ['location.pause', { until: new Date(now + 3_600_000) }],
  ['location.resume', {}],
  ['location.items.snooze', { itemIds: ['item_certify'], until: new Date(now + 3_600_000) }],
  ['location.items.unsnooze', { itemIds: ['item_certify'] }],
];

/** A check's id for an event type: events.order.accept, events.pause. */
const checkOf = (type: string) => `events.${type.replace(/^location\./, '')}`;

export async function certifyDsp(options: KitOptions): Promise<Report> {
  const { caller, provider, listener, say } = options;
  const secret = provider.webhookSecret;
  if (!secret) throw new Error('a DSP is certified with its webhook secret: give --webhook-secret (or register it with one)');
  const grant: Grant = { accessToken: '' };
  const listed: Listed = { ids: [] };
  const store = () => listedTarget(listed, 'store');
  /** A signed POST as the service sends menus and events: the body's bytes signed, the merchant's token, the key. */
  const signed = (operation: Operation, key: string, body: unknown): Promise<ProviderResponse> => {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    return send(caller, 'POST', providerUrl(provider, operation), {
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${grant.accessToken}`,
        'x-service-signature': signBody(raw, secret),
        'idempotency-key': key,
      },
      body: raw,
      retries: 0,
    });
  };
  /** Sent, and sent again under the same key (a retry): each answered 2xx, in words. */
  const twice = async (operation: Operation, key: string, body: unknown) => {
    const first = await signed(operation, key, body);
    const again = await signed(operation, key, body);
    return {
      ok: ok2xx(first) && ok2xx(again),
      said: `→ ${answered(first)}; the same again under Idempotency-Key ${key} → ${answered(again)}`,
    };
  };

  // The platform's order, answered as the service answers it: a bad signature 401, money that is
  // no money or an id missing 400, a store it did not list 422, sums that do not add up a failed
  // order (invalid_cart), else 201 in_progress.
  listener.answerWith(
    answeringAsTheService(secret, DSP_WEBHOOKS, (type, object) => {
      if (type !== 'order.created') return { status: 202, body: { received: true } };
      const order = incoming(object);
      if (!listed.ids.includes(order.dspStoreId))
        throw new AppError(
          422,
          'store_not_bound',
          `DSP store ${order.dspStoreId} is not one your platform listed (${listed.ids.join(', ')})`,
        );
      const sums = sumsProblem(object);
      const orderId = certifyOrderId();
      return {
        status: 201,
        body: sums
          ? { order_id: orderId, status: 'failed', failure_reason: 'invalid_cart', failure_details: sums }
          : { order_id: orderId, status: 'in_progress' },
      };
    }),
  );

  const checks: [string[], CheckRun][] = [
    ...oauthChecks(options, grant),
    locationsCheck(options, () => grant.accessToken, listed, 'store'),
    [
      ['menus.publish'],
      async (record) => {
        const at = store();
        const { catalog } = readCatalog(CATALOG);
        const publishId = `pub_certify_${crypto.randomBytes(6).toString('hex')}`;
        const body = menusBody({
          dspStoreId: at,
          storeId: 'dsp_certify',
          locationProviderId: 'loc_certify',
          timezone: 'America/Chicago',
          prepTimeMinutes: 15,
          version: 1,
          menus: catalog.menu.map((m) => m.provider_id),
          catalog: JSON.stringify(catalog),
        });
        const sent = await twice('menus', messageKey({ purpose: 'publish', subjectId: publishId }), body);
        record(
          'menus.publish',
          sent.ok,
          `POST ${providerUrl(provider, 'menus')} {store_id: ${at}, timezone, catalog_version, menu_provider_ids, catalog}, signed (X-Service-Signature), with the merchant's token ${sent.said}. Rule: menus are answered 2xx, and a repeat of their Idempotency-Key too (it changes nothing)`,
        );
      },
    ],
  ];

  // Order events, of two test orders of the store: one taken (accepted, then ready, then canceled
  // by the merchant), one refused (failed); each sequence as the service counts it.
  const NOT_CANCELED = { canceledBy: null, cancelReason: null, cancelDetails: null, endedAt: null };
  const ordered: [DspEventType, 'taken' | 'refused', number, (sent: Record<string, unknown>) => Record<string, unknown>][] = [
    [
      'location.order.accept',
      'taken',
      1,
      (sent) =>
        accepted(
          { posOrderId: 'pos_certify', status: 'in_progress', prepTimeMinutes: 15, estimatedReadyAt: new Date(Date.now() + 15 * 60_000) },
          sent,
        ),
    ],
    [
      'location.order.notify_status_change',
      'taken',
      2,
      () =>
        statusEvent({
          status: 'ready_for_pickup',
          fulfillmentType: 'pickup',
          deliveryStatus: 'pending',
          driver: null,
          estimatedDropoffAt: null,
          ...NOT_CANCELED,
        }).data,
    ],
    [
      'location.order.cancel',
      'taken',
      3,
      () =>
        statusEvent({
          status: 'merchant_canceled',
          fulfillmentType: 'pickup',
          deliveryStatus: 'pending',
          driver: null,
          estimatedDropoffAt: null,
          ...NOT_CANCELED,
          canceledBy: 'merchant',
          cancelReason: 'out_of_stock',
        }).data,
    ],
    ['location.order.fail', 'refused', 1, () => failed({ reason: 'item_unavailable', details: 'item item_certify is off sale' })],
  ];
  const orders = { taken: sampleOrder('loc_certify'), refused: sampleOrder('loc_certify') };
  for (const [type, which, sequence, data] of ordered)
    checks.push([
      [checkOf(type)],
      async (record) => {
        const order = orders[which];
        const told: Told = {
          id: order.id,
          dspOrderId: String(order.dsp_order_id),
          dspSource: provider.source,
          dspStoreId: store(),
          dspOnboardingId: null,
          partnerId: 'certify',
          orgId: 'certify',
          eventSequence: sequence,
        };
        const event = dspEvent(told, type, data(order));
        const sent = await twice('events', messageKey(event.subject), event.body);
        record(
          checkOf(type),
          sent.ok,
          `POST ${providerUrl(provider, 'events')} {type: ${type}, store_id: ${told.dspStoreId}, data: {order_id ${order.id}, dsp_order_id ${told.dspOrderId}, sequence ${sequence}, …}}, signed, with the merchant's token ${sent.said}. Rule: every event is answered 2xx, an order's you do not know too (drop it), and a repeat of its Idempotency-Key too (it changes nothing)`,
        );
      },
    ]);
  for (const [index, [type, data]] of storeEvents(Date.now()).entries())
    checks.push([
      [checkOf(type)],
      async (record) => {
        const at = store();
        const key = messageKey({ purpose: 'dsp-store-event', subjectId: `dsp_certify_${at}`, which: [index + 1] });
        const sent = await twice('events', key, storeEventBody(type, at, index + 1, data));
        record(
          checkOf(type),
          sent.ok,
          `POST ${providerUrl(provider, 'events')} {type: ${type}, store_id: ${at}, data: {sequence ${index + 1}, …}}, signed, with the merchant's token ${sent.said}. Rule: every event is answered 2xx, and a repeat of its Idempotency-Key too (it changes nothing)`,
        );
      },
    ]);

  const skipped: Skipped[] = [];
  if (options.waitWebhookSeconds !== undefined) {
    checks.push([
      ['webhook.order_created'],
      async (record) => {
        if (!listed.ids.length) throw new Error('no store to order from: locations.shape failed');
        say(
          `Send a signed order.created for one of your stores to ${listener.url}/v1/webhooks/dsp/{source}, or any path under ${listener.url}, signed with your webhook secret (the one the kit was given; it is not printed); the kit reads and answers it as the service would (waiting ${options.waitWebhookSeconds} s)`,
        );
        const arrival = await listener.webhook(ofType('order.created'), options.waitWebhookSeconds! * 1000);
        const answer = arrival?.answer?.body as { status?: unknown } | undefined;
        record(
          'webhook.order_created',
          Boolean(arrival) && signing(arrival!, secret).ok && arrival!.answer!.status === 201 && answer?.status === 'in_progress',
          webhookDetail(
            arrival,
            'order.created',
            secret,
            ', names a store you listed (dsp_store_id) and its own id (dsp_order_id), its money whole numbers of the smallest unit, subtotal the sum of its lines and total subtotal + tax + tax_withheld_by_dsp + delivery_fee + delivery_fee_tax + restaurant_tip + driver_tip − discounts',
          ),
        );
      },
    ]);
  } else skipped.push({ id: 'webhook.order_created', detail: WITHOUT_WAIT });
  return runChecks('dsp', provider.baseUrl, checks, skipped);
}
