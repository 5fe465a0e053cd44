// The tables the plain statements write (./statements.ts), each by a name of its own: code above
// src/db/ writes a row through these and never names a table or writes SQL. A condition or a
// statement of more than one row lives in ./sql/, by name.
import { insertRowsStep, insertStep, updateStep, type Row, type Step } from './statements.js';

type UpdateOptions = Parameters<typeof updateStep>[3];

/** The writes of one table: a row in, rows in (one statement), a row changed by its id. Its fields
 * in the code's names; `columns` names those whose column the database calls otherwise (as the
 * model's `@map` does). */
function table(name: string, columns: Record<string, string> = {}) {
  const renamed = Object.keys(columns).length > 0;
  const stored = (row: Row): Row =>
    renamed ? Object.fromEntries(Object.entries(row).map(([key, value]) => [columns[key] ?? key, value])) : row;
  return {
    insert: (row: Row): Step => insertStep(name, stored(row)),
    insertMany: (rows: Row[]): Step => insertRowsStep(name, rows.map(stored)),
    update: (id: string, data: Row, options?: UpdateOptions): Step => updateStep(name, id, stored(data), options),
  };
}

export const tables = {
  order: table('Order'),
  outbox: table('OutboxMessage'),
  outboxBody: table('OutboxBody'),
  webhook: table('WebhookEvent'),
  webhookReplay: table('WebhookReplay'),
  event: table('Event'),
  endpoint: table('WebhookEndpoint'),
  attempt: table('WebhookAttempt'),
  idempotencyKey: table('IdempotencyKey'),
  location: table('Location'),
  store: table('DspConnection'),
  onboarding: table('Onboarding'),
  catalogVersion: table('CatalogVersion'),
  menuPublish: table('MenuPublish', { storeId: 'dspConnectionId' }),
  erasure: table('Erasure'),
  customerKey: table('CustomerKey'),
} as const;
