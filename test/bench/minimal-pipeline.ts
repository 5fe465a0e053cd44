// The order path written minimally: the ceiling that run.ts (BENCH_ONLY=minimal, minimal-pg)
// measures ours against. node:http, better-sqlite3 or pg, and nothing else: the same work as the
// service's order path with the same durability and the same peers, and none of its framework,
// ORM, checks or bookkeeping. A signed order.created is verified, stored with its message to the
// POS in one transaction, and answered 201; the POS is sent the order at once, and its answer is
// stored with the DSP's location.order.accept in one transaction, which the DSP is then sent at
// once. A call that fails leaves its message pending, and a poll sends it again.
//
// Configured by its environment (run.ts sets it): MINIMAL_DATABASE (a postgresql:// URL, or a
// SQLite file, file: or not), MINIMAL_POS_URL, MINIMAL_POS_TOKEN and MINIMAL_DSP_TOKEN (the
// merchant's grants at the sandbox POS and at the sandbox DSP), MINIMAL_WEBHOOK_SECRET,
// MINIMAL_STORE_ID and MINIMAL_POS_LOCATION_ID (the one store taken, and the POS location it is
// bound to). Prints `minimal pipeline at <url>` once it listens.
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

/** A message to a peer; its id is its idempotency key, the same however often it is sent. */
type Message = { id: string; target: 'pos' | 'dsp'; orderId: string; dspOrderId: string; body: string };
type Order = { id: string; dspOrderId: string; body: string; createdAt: number };

/** The writes of the order path, each one transaction, and what the poll and the bench read. */
type Store = {
  /** The order and its message to the POS; a repeat of its dsp_order_id stores nothing and
   * answers the order taken before. */
  takeOrder(order: Order, message: Message): Promise<{ id: string; duplicate: boolean }>;
  /** The POS took the order: its message delivered, its pos_order_id kept, the DSP's accept written. */
  posTook(message: Message, posOrderId: string, accept: Message): Promise<void>;
  delivered(id: string): Promise<void>;
  pending(): Promise<Message[]>;
  counts(): Promise<{ orders: number; pending: number }>;
};

// The same two tables on both databases. The partial index keeps the poll's look-up to the
// pending messages, however many delivered ones the table holds.
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, dsp_order_id TEXT NOT NULL UNIQUE, dsp_store_id TEXT NOT NULL,
    status TEXT NOT NULL, pos_order_id TEXT, body TEXT NOT NULL, created_at BIGINT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS outbox (id TEXT PRIMARY KEY, target TEXT NOT NULL, order_id TEXT NOT NULL, body TEXT NOT NULL,
    status TEXT NOT NULL, created_at BIGINT NOT NULL, delivered_at BIGINT)`,
  `CREATE INDEX IF NOT EXISTS outbox_pending ON outbox (id) WHERE status = 'pending'`,
];
const PENDING = `SELECT m.id, m.target, m.order_id AS "orderId", o.dsp_order_id AS "dspOrderId", m.body
  FROM outbox m JOIN orders o ON o.id = m.order_id WHERE m.status = 'pending' LIMIT 200`;
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
  const insertOrder = db.prepare(
    `INSERT INTO orders (id, dsp_order_id, dsp_store_id, status, body, created_at) VALUES (?, ?, ?, 'in_progress', ?, ?)
     ON CONFLICT (dsp_order_id) DO NOTHING`,
  );
  const orderOf = db.prepare('SELECT id FROM orders WHERE dsp_order_id = ?').pluck();
  const insertMessage = db.prepare(
    `INSERT INTO outbox (id, target, order_id, body, status, created_at) VALUES (?, ?, ?, ?, 'pending', ?) ON CONFLICT (id) DO NOTHING`,
  );
  const deliver = db.prepare(`UPDATE outbox SET status = 'delivered', delivered_at = ? WHERE id = ? AND status = 'pending'`);
  const setPosOrderId = db.prepare('UPDATE orders SET pos_order_id = ? WHERE id = ?');
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
  const insert = (m: Message, at: number) => insertMessage.run(m.id, m.target, m.orderId, m.body, at);
  return {
    takeOrder: (order, message) =>
      write(() => {
        if (insertOrder.run(order.id, order.dspOrderId, STORE_ID, order.body, order.createdAt).changes === 0)
          return { id: orderOf.get(order.dspOrderId) as string, duplicate: true };
        insert(message, order.createdAt);
        return { id: order.id, duplicate: false };
      }),
    posTook: (message, posOrderId, accept) =>
      write(() => {
        const now = Date.now();
        deliver.run(now, message.id);
        setPosOrderId.run(posOrderId, message.orderId);
        insert(accept, now);
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
  return {
    async takeOrder(order, message) {
      const [taken] = await query<{ id: string }>(
        'take',
        `WITH o AS (INSERT INTO orders (id, dsp_order_id, dsp_store_id, status, body, created_at)
           VALUES ($1, $2, $3, 'in_progress', $4, $5) ON CONFLICT (dsp_order_id) DO NOTHING RETURNING id)
         INSERT INTO outbox (id, target, order_id, body, status, created_at) SELECT $6, 'pos', id, $7, 'pending', $5 FROM o RETURNING id`,
        [order.id, order.dspOrderId, STORE_ID, order.body, order.createdAt, message.id, message.body],
      );
      if (taken) return { id: order.id, duplicate: false };
      const [before] = await query<{ id: string }>('order', 'SELECT id FROM orders WHERE dsp_order_id = $1', [order.dspOrderId]);
      return { id: before!.id, duplicate: true };
    },
    async posTook(message, posOrderId, accept) {
      await query(
        'took',
        `WITH d AS (${deliver}), o AS (UPDATE orders SET pos_order_id = $3 WHERE id = $4)
         INSERT INTO outbox (id, target, order_id, body, status, created_at) VALUES ($5, 'dsp', $4, $6, 'pending', $1)
         ON CONFLICT (id) DO NOTHING`,
        [Date.now(), message.id, posOrderId, message.orderId, accept.id, accept.body],
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
        message.body,
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
      await store.posTook(message, posOrderId, accept);
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
  if (object.dsp_store_id !== STORE_ID) return answer(res, 422, { error: 'store_not_bound' });
  const order: Order = {
    id: `ord_${crypto.randomBytes(12).toString('base64url')}`,
    dspOrderId: object.dsp_order_id,
    body: JSON.stringify(object),
    createdAt: Date.now(),
  };
  const sent = { ...object, id: order.id, status: 'in_progress', delivery_status: 'pending', location_id: POS_LOCATION_ID };
  const message: Message = {
    id: `order.created:${order.id}`,
    target: 'pos',
    orderId: order.id,
    dspOrderId: order.dspOrderId,
    body: JSON.stringify({ type: 'order.created', object: sent }),
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
