// The order path written minimally: the ceiling that run.ts (BENCH_ONLY=minimal, minimal-pg)
// measures ours against. node:http, better-sqlite3 or pg, and nothing else: the same work as the
// service's order path with the same durability and the same peers, and none of its framework or
// ORM. The same work, written the shortest way: a signed order.created is verified, its store
// read and its items checked against the store's menu, its customer sealed under a key of its own
// (kept in a row of its own) with the look-up digests, and it is stored with its message to the
// POS and the partner's order.created event in one transaction, into tables with the service's
// indexes, and answered 201; the POS is sent the order at once, its customer opened, and its
// answer is stored with the DSP's location.order.accept and the partner's event in one
// transaction, which the DSP is then sent at once. A call that fails leaves its message pending,
// and a poll sends it again.
//
// Configured by its environment (run.ts sets it): MINIMAL_DATABASE (a postgresql:// URL, or a
// SQLite file, file: or not), MINIMAL_POS_URL, MINIMAL_POS_TOKEN and MINIMAL_DSP_TOKEN (the
// merchant's grants at the sandbox POS and at the sandbox DSP), MINIMAL_WEBHOOK_SECRET,
// MINIMAL_STORE_ID and MINIMAL_POS_LOCATION_ID (the one store taken, and the POS location it is
// bound to), MINIMAL_MENU_ITEMS (the service ids its menu offers, comma-separated). Prints `minimal pipeline at <url>` once it listens.
import crypto from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import pg from 'pg';
import { BACKSTOP_CHECKPOINT_PAGES, startCheckpointer, walSync } from '../../src/db/sqlite-wal.js';
import { pinToServerCore, unpin } from './cores.js';

// Pinned as the service is in run.ts's process: its main thread on the servers' core, V8's
// helper threads free. Started from run.ts, every thread of it would inherit that core.
unpin(process.pid);
pinToServerCore();

const setting = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const DATABASE = setting('MINIMAL_DATABASE');
const POS_URL = setting('MINIMAL_POS_URL');
const POS_TOKEN = setting('MINIMAL_POS_TOKEN');
const DSP_TOKEN = setting('MINIMAL_DSP_TOKEN');
const WEBHOOK_SECRET = setting('MINIMAL_WEBHOOK_SECRET');
const STORE_ID = setting('MINIMAL_STORE_ID');
const POS_LOCATION_ID = setting('MINIMAL_POS_LOCATION_ID');
const MENU_ITEMS = setting('MINIMAL_MENU_ITEMS');
const ORG_ID = 'org_minimal';
const PARTNER_ID = 'partner_minimal';

/** A message to a peer; its id is its idempotency key, the same however often it is sent. */
type Message = { id: string; target: 'pos' | 'dsp'; orderId: string; dspOrderId: string; body: string; sealedKey?: string | null };
type Order = {
  id: string;
  dspOrderId: string;
  body: string;
  createdAt: number;
  sealedKey: string;
  phoneDigest: string | null;
  loyaltyDigest: string | null;
  event: string;
};

/** The writes of the order path, each one transaction, and what the poll and the bench read. */
type Store = {
  /** The store's status and menu, read before an order of it is taken. */
  store(id: string): Promise<{ status: string; menu: string } | undefined>;
  /** The order, its customer's key, its message to the POS and the partner's event; a repeat of
   * its dsp_order_id stores nothing and answers the order taken before. */
  takeOrder(order: Order, message: Message): Promise<{ id: string; duplicate: boolean }>;
  /** The POS took the order: its message delivered, its pos_order_id kept, the DSP's accept and
   * the partner's event written. */
  posTook(message: Message, posOrderId: string, accept: Message, event: string): Promise<void>;
  delivered(id: string): Promise<void>;
  pending(): Promise<Message[]>;
  counts(): Promise<{ orders: number; pending: number }>;
};

// The service's tables for the path, with its indexes (prisma/models.prisma: Order, CustomerKey,
// OutboxMessage, Event), on both databases; and the store with its menu.
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS stores (id TEXT PRIMARY KEY, status TEXT NOT NULL, menu TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, dsp_source TEXT NOT NULL, dsp_order_id TEXT NOT NULL,
    dsp_store_id TEXT NOT NULL, org_id TEXT, location_id TEXT, status TEXT NOT NULL, pos_order_id TEXT, customer_phone TEXT,
    customer_loyalty_id TEXT, redacted_at BIGINT, ended_at BIGINT, decision_due_at BIGINT, body TEXT NOT NULL,
    created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, UNIQUE (dsp_source, dsp_order_id))`,
  'CREATE INDEX IF NOT EXISTS orders_org ON orders (org_id, created_at, id)',
  'CREATE INDEX IF NOT EXISTS orders_org_status ON orders (org_id, status, created_at, id)',
  'CREATE INDEX IF NOT EXISTS orders_location ON orders (location_id, created_at)',
  'CREATE INDEX IF NOT EXISTS orders_phone ON orders (org_id, customer_phone)',
  'CREATE INDEX IF NOT EXISTS orders_loyalty ON orders (org_id, customer_loyalty_id)',
  'CREATE INDEX IF NOT EXISTS orders_expiry ON orders (redacted_at, ended_at)',
  'CREATE INDEX IF NOT EXISTS orders_decision ON orders (status, decision_due_at)',
  `CREATE TABLE IF NOT EXISTS customer_keys (order_id TEXT PRIMARY KEY, sealed_key TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS outbox (id TEXT PRIMARY KEY, idempotency_key TEXT NOT NULL UNIQUE, target TEXT NOT NULL,
    order_id TEXT NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL, created_at BIGINT NOT NULL, next_attempt_at BIGINT NOT NULL,
    ordering_key TEXT, ordering_position BIGINT, delivered_at BIGINT)`,
  'CREATE INDEX IF NOT EXISTS outbox_next ON outbox (status, next_attempt_at)',
  'CREATE INDEX IF NOT EXISTS outbox_ordering ON outbox (ordering_key, ordering_position)',
  'CREATE INDEX IF NOT EXISTS outbox_subject ON outbox (order_id)',
  `CREATE TABLE IF NOT EXISTS events (id TEXT PRIMARY KEY, partner_id TEXT NOT NULL, org_id TEXT, type TEXT NOT NULL,
    subject_id TEXT, data TEXT NOT NULL, created_at BIGINT NOT NULL)`,
  'CREATE INDEX IF NOT EXISTS events_partner ON events (partner_id, created_at, id)',
  'CREATE INDEX IF NOT EXISTS events_org ON events (org_id, created_at, id)',
  'CREATE INDEX IF NOT EXISTS events_created ON events (created_at)',
  'CREATE INDEX IF NOT EXISTS events_subject ON events (subject_id, created_at)',
];
const STORE_ROW = [STORE_ID, 'active', JSON.stringify(MENU_ITEMS.split(','))];
const PENDING = `SELECT m.id, m.target, m.order_id AS "orderId", o.dsp_order_id AS "dspOrderId", m.body, k.sealed_key AS "sealedKey"
  FROM outbox m JOIN orders o ON o.id = m.order_id LEFT JOIN customer_keys k ON k.order_id = m.order_id AND m.target = 'pos'
  WHERE m.status = 'pending' LIMIT 200`;
const COUNTS = `SELECT (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM outbox WHERE status = 'pending') AS pending`;

/** SQLite as the service keeps it (src/db/sqlite-wal.ts): WAL; the transactions asked for in one
 * turn of the event loop commit together with synchronous=normal, and their callers are answered
 * after an fdatasync of the log on libuv's thread pool, which is what synchronous=full would
 * sync; checkpoints run in a worker thread. */
function sqliteStore(file: string): Store {
  const db = new Database(file);
  db.pragma('journal_mode = wal');
  db.pragma('synchronous = normal');
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  for (const statement of SCHEMA) db.exec(statement);
  const wal = walSync(file);
  startCheckpointer(file, (message) => process.stderr.write(`checkpoint failed: ${message}\n`));
  db.prepare('INSERT INTO stores (id, status, menu) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING').run(...STORE_ROW);
  const storeOf = db.prepare('SELECT status, menu FROM stores WHERE id = ?');
  const insertOrder = db.prepare(
    `INSERT INTO orders (id, dsp_source, dsp_order_id, dsp_store_id, org_id, location_id, status, customer_phone,
       customer_loyalty_id, body, created_at, updated_at)
     VALUES (?, 'sandbox-dsp', ?, ?, ?, ?, 'in_progress', ?, ?, ?, ?, ?) ON CONFLICT (dsp_source, dsp_order_id) DO NOTHING`,
  );
  const orderOf = db.prepare(`SELECT id FROM orders WHERE dsp_source = 'sandbox-dsp' AND dsp_order_id = ?`).pluck();
  const insertKey = db.prepare('INSERT INTO customer_keys (order_id, sealed_key) VALUES (?, ?)');
  const insertMessage = db.prepare(
    `INSERT INTO outbox (id, idempotency_key, target, order_id, body, status, created_at, next_attempt_at, ordering_key, ordering_position)
     VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
  );
  const insertEvent = db.prepare(
    'INSERT INTO events (id, partner_id, org_id, type, subject_id, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const deliver = db.prepare(`UPDATE outbox SET status = 'delivered', delivered_at = ? WHERE id = ? AND status = 'pending'`);
  const setPosOrderId = db.prepare(`UPDATE orders SET pos_order_id = ?, status = 'in_progress', updated_at = ? WHERE id = ?`);
  const pending = db.prepare(PENDING);
  const counts = db.prepare(COUNTS);

  type Job = { work: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void };
  let queue: Job[] = [];
  // Nothing in a group is expected to throw (a repeat is ON CONFLICT DO NOTHING): if anything
  // does, the whole group is undone and every caller hears the error.
  const flush = async () => {
    const jobs = queue;
    queue = [];
    let values: unknown[];
    try {
      values = db.transaction(() => jobs.map((job) => job.work()))();
      await wal.synced();
    } catch (error) {
      for (const job of jobs) job.reject(error);
      return;
    }
    for (const [i, job] of jobs.entries()) job.resolve(values[i]);
  };
  const write = <T>(work: () => T) =>
    new Promise<T>((resolve, reject) => {
      if (!queue.length) setImmediate(() => void flush());
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
    });
  const insert = (m: Message, at: number) =>
    insertMessage.run(
      m.id,
      m.id,
      m.target,
      m.orderId,
      m.body,
      at,
      at,
      m.target === 'dsp' ? m.orderId : null,
      m.target === 'dsp' ? 1 : null,
    );
  const event = (orderId: string, type: string, data: string, at: number) =>
    insertEvent.run(`evt_${crypto.randomBytes(12).toString('base64url')}`, PARTNER_ID, ORG_ID, type, orderId, data, at);
  return {
    store: async (id) => storeOf.get(id) as { status: string; menu: string } | undefined,
    takeOrder: (order, message) =>
      write(() => {
        const at = order.createdAt;
        if (
          insertOrder.run(
            order.id,
            order.dspOrderId,
            STORE_ID,
            ORG_ID,
            POS_LOCATION_ID,
            order.phoneDigest,
            order.loyaltyDigest,
            order.body,
            at,
            at,
          ).changes === 0
        )
          return { id: orderOf.get(order.dspOrderId) as string, duplicate: true };
        insertKey.run(order.id, order.sealedKey);
        insert(message, at);
        event(order.id, 'order.created', order.event, at);
        return { id: order.id, duplicate: false };
      }),
    posTook: (message, posOrderId, accept, accepted) =>
      write(() => {
        const now = Date.now();
        deliver.run(now, message.id);
        setPosOrderId.run(posOrderId, now, message.orderId);
        insert(accept, now);
        event(message.orderId, 'order.accepted', accepted, now);
      }),
    delivered: (id) => write(() => void deliver.run(Date.now(), id)),
    pending: async () => pending.all() as Message[],
    counts: async () => counts.get() as { orders: number; pending: number },
  };
}

/** PostgreSQL at its default durability: each transaction is one statement (its writes as parts
 * of a WITH, as the service sends a new order's), prepared once per connection. */
async function postgresStore(url: string): Promise<Store> {
  // Twenty connections, as the service's pool has.
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  // An idle connection's error (the server restarted) is not this process's end.
  pool.on('error', (error) => process.stderr.write(`postgresql: ${error.message}\n`));
  for (const statement of SCHEMA) await pool.query(statement);
  const query = async <T>(name: string, text: string, values: unknown[] = []) => (await pool.query({ name, text, values })).rows as T[];
  const deliver = `UPDATE outbox SET status = 'delivered', delivered_at = $1 WHERE id = $2 AND status = 'pending'`;
  await pool.query('INSERT INTO stores (id, status, menu) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', STORE_ROW);
  const eventId = () => `evt_${crypto.randomBytes(12).toString('base64url')}`;
  return {
    async store(id) {
      const [row] = await query<{ status: string; menu: string }>('store', 'SELECT status, menu FROM stores WHERE id = $1', [id]);
      return row;
    },
    async takeOrder(order, message) {
      const [taken] = await query<{ id: string }>(
        'take',
        `WITH o AS (INSERT INTO orders (id, dsp_source, dsp_order_id, dsp_store_id, org_id, location_id, status, customer_phone,
             customer_loyalty_id, body, created_at, updated_at)
           VALUES ($1, 'sandbox-dsp', $2, $3, $8, $9, 'in_progress', $10, $11, $4, $5, $5)
           ON CONFLICT (dsp_source, dsp_order_id) DO NOTHING RETURNING id),
         k AS (INSERT INTO customer_keys (order_id, sealed_key) SELECT id, $12 FROM o),
         e AS (INSERT INTO events (id, partner_id, org_id, type, subject_id, data, created_at)
           SELECT $13, $14, $8, 'order.created', id, $15, $5 FROM o)
         INSERT INTO outbox (id, idempotency_key, target, order_id, body, status, created_at, next_attempt_at)
         SELECT $6, $6, 'pos', id, $7, 'pending', $5, $5 FROM o RETURNING id`,
        [
          order.id,
          order.dspOrderId,
          STORE_ID,
          order.body,
          order.createdAt,
          message.id,
          message.body,
          ORG_ID,
          POS_LOCATION_ID,
          order.phoneDigest,
          order.loyaltyDigest,
          order.sealedKey,
          eventId(),
          PARTNER_ID,
          order.event,
        ],
      );
      if (taken) return { id: order.id, duplicate: false };
      const [before] = await query<{ id: string }>(
        'order',
        `SELECT id FROM orders WHERE dsp_source = 'sandbox-dsp' AND dsp_order_id = $1`,
        [order.dspOrderId],
      );
      return { id: before!.id, duplicate: true };
    },
    async posTook(message, posOrderId, accept, accepted) {
      await query(
        'took',
        `WITH d AS (${deliver}), o AS (UPDATE orders SET pos_order_id = $3, status = 'in_progress', updated_at = $1 WHERE id = $4),
         e AS (INSERT INTO events (id, partner_id, org_id, type, subject_id, data, created_at) VALUES ($7, $8, $9, 'order.accepted', $4, $10, $1))
         INSERT INTO outbox (id, idempotency_key, target, order_id, body, status, created_at, next_attempt_at, ordering_key, ordering_position)
         VALUES ($5, $5, 'dsp', $4, $6, 'pending', $1, $1, $4, 1)
         ON CONFLICT (id) DO NOTHING`,
        [Date.now(), message.id, posOrderId, message.orderId, accept.id, accept.body, eventId(), PARTNER_ID, ORG_ID, accepted],
      );
    },
    async delivered(id) {
      await query('delivered', deliver, [Date.now(), id]);
    },
    pending: () => query<Message>('pending', PENDING),
    async counts() {
      const [row] = await query<{ orders: string; pending: string }>('counts', COUNTS);
      return { orders: Number(row!.orders), pending: Number(row!.pending) };
    },
  };
}

const store = DATABASE.startsWith('postgres') ? await postgresStore(DATABASE) : sqliteStore(DATABASE.replace(/^file:/, ''));
const sign = (body: string) => crypto.createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex');

// The customer sealed as the service seals it (src/modules/privacy/customer.ts): under a key of
// the order's own (AES-256-GCM), itself sealed by the service's, and found by digests keyed per
// organization; opened for the POS just before its message goes.
const SERVICE_KEY = crypto.randomBytes(32);
const hmac = (key: Buffer, data: string) => crypto.createHmac('sha256', key).update(data).digest();
const ORG_DIGESTS = hmac(hmac(SERVICE_KEY, 'digests'), ORG_ID);
const CUSTOMER_FIELDS = [
  'customer',
  'customers',
  'delivery_address',
  'billing_address',
  'special_instructions',
  'fulfillment_instructions',
];
function seal(key: Buffer, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return [iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}
function open(key: Buffer, sealed: string): string {
  const [iv, tag, data] = sealed.split('.') as [string, string, string];
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
function sealCustomer(object: Record<string, unknown>) {
  const customer = object.customer as { phone?: string; provider_loyalty_id?: string } | undefined;
  const phone = customer?.phone?.replace(/\D/g, '');
  const loyalty = customer?.provider_loyalty_id?.trim();
  const pieces: Record<string, unknown> = {};
  const redacted: Record<string, unknown> = { ...object };
  for (const field of CUSTOMER_FIELDS)
    if (field in object) {
      pieces[field] = object[field];
      redacted[field] = 'redacted';
    }
  const dataKey = crypto.randomBytes(32);
  redacted.sealed_customer = seal(dataKey, JSON.stringify(pieces));
  return {
    object: redacted,
    sealedKey: seal(SERVICE_KEY, dataKey.toString('base64url')),
    phoneDigest: phone ? hmac(ORG_DIGESTS, `phone:${phone}`).toString('base64url') : null,
    loyaltyDigest: loyalty ? hmac(ORG_DIGESTS, `loyalty:${loyalty}`).toString('base64url') : null,
  };
}
/** A message to the POS as it goes: its order's customer opened with the order's key. */
function opened(message: Message): string {
  if (!message.sealedKey) return message.body;
  const body = JSON.parse(message.body) as { object: Record<string, unknown> };
  const dataKey = Buffer.from(open(SERVICE_KEY, message.sealedKey), 'base64url');
  const pieces = JSON.parse(open(dataKey, body.object.sealed_customer as string)) as Record<string, unknown>;
  delete body.object.sealed_customer;
  Object.assign(body.object, pieces);
  return JSON.stringify(body);
}

/** Why the store does not take the order (its status, an item not on its menu), or null. */
const menus = new Map<string, Set<string>>();
function refusal(found: { status: string; menu: string } | undefined, items: unknown): string | null {
  if (!found) return 'store_not_bound';
  if (found.status !== 'active') return 'restaurant_not_accepting_orders';
  let offered = menus.get(found.menu);
  if (!offered) {
    offered = new Set(JSON.parse(found.menu) as string[]);
    menus.set(found.menu, offered);
  }
  if (!Array.isArray(items) || !items.length) return 'invalid_cart';
  for (const item of items as { service_id?: unknown; quantity?: unknown }[])
    if (typeof item.service_id !== 'string' || !offered.has(item.service_id) || typeof item.quantity !== 'number' || item.quantity < 1)
      return 'item_unavailable';
  return null;
}

// The peers' calls: kept-alive connections, and a bound on a call that never answers.
const agent = new http.Agent({ keepAlive: true });
function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      agent,
      timeout: 10_000,
      headers: { 'content-type': 'application/json', ...headers },
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', reject);
    request.end(body);
  });
}

/** The messages being sent now: the poll leaves them alone. A message is in it from before the
 * transaction that writes it commits, so the poll never sends one that is about to be sent. */
const sending = new Set<string>();
/** The messages whose sending ended since the poll's last look-up began: that look-up may have
 * read one as pending before it was delivered. One that failed is sent by the next poll. */
const ended = new Set<string>();

/** Sends a message; on a failure it stays pending (the poll sends it again). */
async function send(message: Message): Promise<void> {
  let accept: Message | undefined;
  try {
    if (message.target === 'pos') {
      const answer = await post(
        `${POS_URL}/v1/orders`,
        { authorization: `Bearer ${POS_TOKEN}`, 'idempotency-key': message.id, 'x-provider-location-id': POS_LOCATION_ID },
        opened(message),
      );
      const posOrderId =
        answer.status >= 200 && answer.status < 300
          ? (JSON.parse(answer.body) as { order?: { pos_order_id?: unknown } }).order?.pos_order_id
          : null;
      if (typeof posOrderId !== 'string') return;
      const body = JSON.stringify({
        type: 'location.order.accept',
        store_id: STORE_ID,
        created_at: Date.now(),
        data: { order_id: message.orderId, dsp_order_id: message.dspOrderId, sequence: 1, pos_order_id: posOrderId, status: 'in_progress' },
      });
      accept = { id: `dsp-event:${message.orderId}:1`, target: 'dsp', orderId: message.orderId, dspOrderId: message.dspOrderId, body };
      sending.add(accept.id);
      const event = JSON.stringify({
        order_id: message.orderId,
        dsp_order_id: message.dspOrderId,
        pos_order_id: posOrderId,
        status: 'in_progress',
      });
      await store.posTook(message, posOrderId, accept, event);
      void send(accept);
      accept = undefined;
    } else {
      const answer = await post(
        `${POS_URL}/v1/events`,
        { authorization: `Bearer ${DSP_TOKEN}`, 'idempotency-key': message.id, 'x-service-signature': sign(message.body) },
        message.body,
      );
      if (answer.status >= 200 && answer.status < 300) await store.delivered(message.id);
    }
  } catch {
    // No answer, or the database refused the write: left pending.
  } finally {
    sending.delete(message.id);
    ended.add(message.id);
    if (accept) sending.delete(accept.id);
  }
}

// What was not sent, or not answered, is sent again from here (after a restart too).
let polling = false;
setInterval(async () => {
  if (polling) return;
  polling = true;
  ended.clear();
  try {
    for (const message of await store.pending())
      if (!sending.has(message.id) && !ended.has(message.id)) {
        sending.add(message.id);
        void send(message);
      }
  } catch (error) {
    process.stderr.write(`poll failed: ${(error as Error).message}\n`);
  } finally {
    polling = false;
  }
}, 500).unref();

const answer = (res: http.ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** A DSP's signed order.created: verified, stored with its message to the POS, answered, sent on. */
async function orderCreated(raw: Buffer, signature: string | undefined, res: http.ServerResponse) {
  const expected = Buffer.from(crypto.createHmac('sha256', WEBHOOK_SECRET).update(raw).digest('hex'));
  const given = Buffer.from(signature ?? '');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return answer(res, 401, { error: 'invalid_signature' });
  let event: { type?: unknown; object?: Record<string, unknown> };
  try {
    event = JSON.parse(raw.toString('utf8')) as typeof event;
  } catch {
    return answer(res, 400, { error: 'invalid_json' });
  }
  const object = event.object;
  if (event.type !== 'order.created' || !object || typeof object.dsp_order_id !== 'string')
    return answer(res, 400, { error: 'invalid_request', message: 'an order.created with object.dsp_order_id' });
  const refused = refusal(await store.store(String(object.dsp_store_id)), object.items);
  if (refused) return answer(res, 422, { error: refused });
  const sealed = sealCustomer(object);
  const id = `ord_${crypto.randomBytes(12).toString('base64url')}`;
  const order: Order = {
    id,
    dspOrderId: object.dsp_order_id,
    body: JSON.stringify(sealed.object),
    createdAt: Date.now(),
    sealedKey: sealed.sealedKey,
    phoneDigest: sealed.phoneDigest,
    loyaltyDigest: sealed.loyaltyDigest,
    event: JSON.stringify({
      order_id: id,
      dsp_order_id: object.dsp_order_id,
      store_id: STORE_ID,
      status: 'in_progress',
      total: object.total,
    }),
  };
  const sent = { ...sealed.object, id: order.id, status: 'in_progress', delivery_status: 'pending', location_id: POS_LOCATION_ID };
  const message: Message = {
    id: `order.created:${order.id}`,
    target: 'pos',
    orderId: order.id,
    dspOrderId: order.dspOrderId,
    body: JSON.stringify({ type: 'order.created', object: sent }),
    sealedKey: sealed.sealedKey,
  };
  sending.add(message.id);
  let taken: { id: string; duplicate: boolean };
  try {
    taken = await store.takeOrder(order, message);
  } catch (error) {
    sending.delete(message.id);
    return answer(res, 500, { error: 'not_stored', message: (error as Error).message });
  }
  if (taken.duplicate) {
    sending.delete(message.id);
    return answer(res, 200, { order_id: taken.id, status: 'in_progress', duplicate: true });
  }
  answer(res, 201, { order_id: order.id, status: 'in_progress' });
  void send(message);
}

const server = http.createServer((req, res) => {
  // The bench's reading of this process: its orders, what is still to send, and its own work.
  if (req.method === 'GET' && req.url === '/_bench/stats') {
    store.counts().then(
      (counts) => {
        const cpu = process.cpuUsage();
        answer(res, 200, { ...counts, activeMs: performance.eventLoopUtilization().active, cpuUs: cpu.user + cpu.system });
      },
      (error: Error) => answer(res, 500, { error: 'internal', message: error.message }),
    );
    return;
  }
  if (req.method !== 'POST' || req.url !== '/v1/webhooks/dsp/sandbox-dsp') return answer(res, 404, { error: 'not_found' });
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const signature = req.headers['service-webhook-signature'];
    orderCreated(Buffer.concat(chunks), typeof signature === 'string' ? signature : undefined, res).catch((error: Error) =>
      answer(res, 500, { error: 'internal', message: error.message }),
    );
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`minimal pipeline at http://127.0.0.1:${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
