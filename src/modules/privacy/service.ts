// Customers' data that expires or is erased (docs/operations.md, "Customers' data"): the order's
// key is deleted (./customer.ts: its customer was stored sealed under it), and what names or
// locates its customer (CUSTOMER_DATA) is "redacted" in every stored copy, the sealed pieces
// dropped: the order, and the outbox messages about it, which no longer carry the key. Partner
// events and the logs never held them. Orders that ended
// more than RETENTION_DAYS ago are redacted at start-up and every hour; an erasure redacts a
// customer's ended orders at once and each open one in the transaction that ends it
// (modules/orders calls `redactIfErased` there). Each redaction is conditional on the order not
// being redacted yet: several instances, or the same sweep twice, change nothing more. Whether an
// order ended is its `endedAt`: this module knows no order statuses.
import type { Services } from '../../services.js';
import type { AuthInfo } from '../../common/scopes.js';
import { Invalid } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import { statementsOf, type Run } from '../../db/statements.js';
import {
  customerOrders,
  erasedOrdersEnded,
  expiredOrders,
  forgetCustomerKey,
  markErasure,
  orderMessages,
  redactOrder,
  type RedactableOrder,
} from '../../db/sql/privacy.js';
import { forgetOverwritten } from '../../db/client.js';
import { findOrganization } from '../organizations/service.js';
import { tables } from '../../db/tables.js';
import { redactJson } from './redact.js';
import { lookupOf, withoutKey } from './customer.js';

const BATCH = 200;

/** One order redacted, its key deleted, with the messages that carried it, as steps of a
 * transaction: false when it was redacted already. */
export async function redactStoredOrder(run: Run, order: Pick<RedactableOrder, 'id' | 'body'>, now = new Date()): Promise<boolean> {
  const [done] = await run(redactOrder(order.id, JSON.stringify(redactJson(JSON.parse(order.body))), now));
  if (!done) return false;
  await run(forgetCustomerKey(order.id));
  for (const message of await run<{ id: string; body: string; headers: string | null }>(orderMessages(order.id))) {
    const body = JSON.stringify(redactJson(JSON.parse(message.body)));
    const headers = withoutKey(message.headers);
    if (body !== message.body || headers !== message.headers) await run(tables.outbox.update(message.id, { body, headers }));
  }
  return true;
}

/** An order that has just ended (in the transaction that ends it): redacted now if an erasure
 * asked for it while it was open. */
export async function redactIfErased(
  run: Run,
  services: Pick<Services, 'db' | 'log'>,
  order: Pick<RedactableOrder, 'id' | 'body'> & { erasureRequestedAt: Date | null; endedAt: Date | null },
) {
  if (order.erasureRequestedAt && order.endedAt && (await redactStoredOrder(run, order))) run.after(() => forget(services));
}

/** Once redactions have committed: no older copy of them left in the database's files. */
function forget(services: Pick<Services, 'db' | 'log'>): Promise<void> {
  return forgetOverwritten(services.db).catch((error: unknown) =>
    services.log.warn({ err: error }, 'the database log still holds redacted data; the next redaction empties it'),
  );
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

/** Orders ended more than RETENTION_DAYS ago, and ended ones an erasure asked for: redacted. */
export async function retentionSweep(services: Services): Promise<{ expired: number; erased: number }> {
  const sql = statementsOf(services.db);
  const before = new Date(Date.now() - services.config.retentionDays * 86_400_000);
  const expired = await redactAll(services, () => expiredOrders(sql, before, BATCH));
  const erased = await redactAll(services, () => erasedOrdersEnded(sql, BATCH));
  if (expired || erased) {
    await forget(services);
    services.log.info({ expired, erased }, 'customer data redacted');
  }
  return { expired, erased };
}

/** A customer's erasure: their ended orders of the organization redacted now, open ones when they
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
  const orders = await customerOrders(sql, org.id, lookupOf(services.sealer, org.id, { phone, loyaltyId }));
  const ended = orders.filter((order) => order.endedAt !== null);
  const open = orders.filter((order) => order.endedAt === null);
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
      tables.erasure.insert({
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
  await redactAll(services, () => erasedOrdersEnded(sql, BATCH));
  await forget(services);
  return { ordersRedacted: redacted, ordersPending: open.length };
}
