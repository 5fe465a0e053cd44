// Customers' data that expires or is erased (docs/operations.md, "Customers' data"): an order's
// customer (name, phone, loyalty id) and delivery address are replaced by "redacted" in every
// stored copy: the order, and the outbox messages that carried it to the POS and the event
// provider. Partner events and the logs never held them. Final orders older than RETENTION_DAYS
// are redacted at start-up and every hour; an erasure redacts a customer's final orders at once
// and each open one in the transaction that ends it. Each redaction is conditional on the order
// not being redacted yet: several instances, or the same sweep twice, change nothing more.
import type { Services } from '../../services.js';
import type { AuthInfo } from '../../common/scopes.js';
import { Invalid } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import { insertStep, statementsOf, updateStep, type Run } from '../../db/statements.js';
import {
  customerOrders,
  erasedOrdersEnded,
  expiredOrders,
  markErasure,
  orderMessages,
  redactOrder,
  type RedactableOrder,
} from '../../db/sql/privacy.js';
import { FINAL_STATUSES } from '../orders/states.js';
import { findOrganization } from '../organizations/service.js';

export const REDACTED = 'redacted';
const CUSTOMER_FIELDS = ['name', 'phone', 'provider_loyalty_id', 'masked_phone_code'];
const BATCH = 200;
const FINALS = [...FINAL_STATUSES];

/** A JSON value with every customer (a `customer` object, the `customers` list) and delivery
 * address in it redacted, wherever it is nested (an order object, a message body holding one). */
export function redactJson(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => redactJson(item, key === 'customers' ? 'customer' : undefined));
  if (!value || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  if (key === 'customer')
    return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, CUSTOMER_FIELDS.includes(k) && v != null ? REDACTED : v]));
  if (key === 'delivery_address')
    return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, typeof v === 'string' || typeof v === 'number' ? REDACTED : v]));
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, redactJson(v, k)]));
}

/** What an erasure matches an order's customer by: the phone's digits, the loyalty id. */
export function customerKeys(order: Record<string, unknown>): { customerPhone: string | null; customerLoyaltyId: string | null } {
  const customer = (order.customer ?? (Array.isArray(order.customers) ? order.customers[0] : undefined)) as
    | Record<string, unknown>
    | undefined;
  const phone = typeof customer?.phone === 'string' ? customer.phone.replace(/\D/g, '') : '';
  const loyalty = typeof customer?.provider_loyalty_id === 'string' ? customer.provider_loyalty_id.trim() : '';
  return { customerPhone: phone || null, customerLoyaltyId: loyalty || null };
}

/** One order redacted, with the messages that carried it, as steps of a transaction: false when it
 * was redacted already. */
export async function redactStoredOrder(run: Run, order: Pick<RedactableOrder, 'id' | 'body'>, now = new Date()): Promise<boolean> {
  const [done] = await run(redactOrder(order.id, JSON.stringify(redactJson(JSON.parse(order.body))), now));
  if (!done) return false;
  for (const message of await run<{ id: string; body: string }>(orderMessages(order.id)))
    await run(updateStep('OutboxMessage', message.id, { body: JSON.stringify(redactJson(JSON.parse(message.body))) }));
  return true;
}

/** An order that has just ended (in the transaction that ends it): redacted now if an erasure
 * asked for it while it was open. */
export async function redactIfErased(
  run: Run,
  order: Pick<RedactableOrder, 'id' | 'body' | 'status'> & { erasureRequestedAt: Date | null },
) {
  if (order.erasureRequestedAt && FINAL_STATUSES.has(order.status)) await redactStoredOrder(run, order);
}

/** Redacts a list of orders a batch a transaction; how many it redacted. */
async function redactAll(services: Services, read: () => Promise<RedactableOrder[]>): Promise<number> {
  const sql = statementsOf(services.db);
  let redacted = 0;
  for (;;) {
    const batch = await read();
    if (!batch.length) return redacted;
    redacted += await sql.transaction(async (run) => {
      let count = 0;
      for (const order of batch) if (await redactStoredOrder(run, order)) count++;
      return count;
    });
    if (batch.length < BATCH) return redacted;
  }
}

/** Final orders past RETENTION_DAYS, and ended ones an erasure asked for: redacted. */
export async function retentionSweep(services: Services): Promise<{ expired: number; erased: number }> {
  const sql = statementsOf(services.db);
  const before = new Date(Date.now() - services.config.retentionDays * 86_400_000);
  const expired = await redactAll(services, () => expiredOrders(sql, FINALS, before, BATCH));
  const erased = await redactAll(services, () => erasedOrdersEnded(sql, FINALS, BATCH));
  if (expired || erased) services.log.info({ expired, erased }, 'customer data redacted');
  return { expired, erased };
}

/** A customer's erasure: their final orders of the organization redacted now, open ones when they
 * end. Recorded without the customer's data. */
export async function requestErasure(
  services: Services,
  auth: AuthInfo,
  input: { orgId: string; phone?: string | null; providerLoyaltyId?: string | null },
): Promise<{ ordersRedacted: number; ordersPending: number }> {
  const org = await findOrganization(services, auth, input.orgId);
  const phone = input.phone?.replace(/\D/g, '') || null;
  const loyaltyId = input.providerLoyaltyId?.trim() || null;
  if (!phone && !loyaltyId) throw new Invalid('give phone or provider_loyalty_id: the customer whose data is to be erased');
  const sql = statementsOf(services.db);
  const orders = await customerOrders(sql, org.id, { phone, loyaltyId });
  const ended = orders.filter((order) => FINAL_STATUSES.has(order.status));
  const open = orders.filter((order) => !FINAL_STATUSES.has(order.status));
  const now = new Date();
  const redacted = await sql.transaction(async (run) => {
    let count = 0;
    for (const order of ended) if (await redactStoredOrder(run, order, now)) count++;
    if (open.length)
      await run(
        markErasure(
          open.map((order) => order.id),
          now,
        ),
      );
    await run(
      insertStep('Erasure', {
        id: newId('era'),
        partnerId: auth.partnerId,
        orgId: org.id,
        requestedBy: auth.sessionId,
        ordersRedacted: count,
        ordersPending: open.length,
        createdAt: now,
      }),
    );
    return count;
  });
  // An open order that ended between the read and the mark: redacted now all the same.
  await redactAll(services, () => erasedOrdersEnded(sql, FINALS, BATCH));
  return { ordersRedacted: redacted, ordersPending: open.length };
}
