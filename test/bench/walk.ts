// The walk of a DSP's order.created (docs/architecture.md, "The walk of an order"): the files of
// src/ whose code runs from the webhook's arrival to its 2xx, measured with V8's precise coverage
// (the functions called, counted), for one order after a few that warm every cache, on the real
// path: the store has received its menus (the cart is checked against them and their hours) and
// the partner has a webhook endpoint listening (the order's event goes to it). What the order sets
// off after its answer (the POS call, the partner's event, on the next turn of the event loop) is
// held back until the count is taken, and listed apart. The test's own client (the sandbox DSP's
// order builder) is not counted.
// Run: `npx tsx test/bench/walk.ts` (SQLite; DATABASE_URL for PostgreSQL).
import inspector from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OutboxMessage } from '../../src/db/client.js';
import { post, startTestService } from '../support/service.js';
import { control, startPos, testSecrets } from '../support/sandbox.js';
import { catalogReceived, merchantTakingOrders, sendDspOrder } from '../support/orders.js';
import { startReceiver } from '../support/receiver.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const src = `${path.join(root, 'src')}${path.sep}`;

/** The files of src/ with a function called since the last look (each look resets the counts). */
async function filesRun(session: inspector.Session): Promise<string[]> {
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const files = new Set<string>();
  for (const script of result) {
    if (!script.url.startsWith('file://')) continue;
    const file = fileURLToPath(script.url);
    if (!file.startsWith(src) || file.includes(`${path.sep}generated${path.sep}`)) continue;
    if (script.functions.some((fn) => fn.ranges[0]!.count > 0)) files.add(path.relative(root, file));
  }
  return [...files].sort();
}

// The partner's endpoint is on this machine: its name resolves to loopback, which SANDBOX=on lets
// an endpoint reach.
const service = await startTestService({ SANDBOX: 'on' }, { resolveHost: async () => ['127.0.0.1'] });
const secrets = testSecrets();
const pos = await startPos(service, secrets);
const partnerEndpoint = await startReceiver();
try {
  const partner = await service.partner();
  const endpoint = await post(service.url, '/v1/webhook-endpoints', { url: partnerEndpoint.url }, partner.token);
  if (endpoint.status !== 201) throw new Error(`the partner's endpoint was answered ${endpoint.status}`);
  const merchant = await merchantTakingOrders(service, partner);
  await control(pos, 'catalog-updated', { location_id: `loc_2_${merchant.tid}` });
  await catalogReceived(service, merchant.locationId);
  for (let i = 0; i < 5; i++) {
    const warm = await sendDspOrder(service.url, secrets.webhookSecret, merchant.storeId);
    if (warm.status !== 201) throw new Error(`a warming order was answered ${warm.status}`);
  }
  // Every message of the warming orders delivered (the POS's order, the DSP's accept, the
  // partner's events): nothing of theirs runs beside the order counted.
  await service.worker.idle();
  // What the order sets off after its answer waits until the count is taken.
  const held: OutboxMessage[] = [];
  const dispatch = service.services.delivery.dispatch.bind(service.services.delivery);
  service.services.delivery.dispatch = (message) => void held.push(message);

  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  // Five orders, each counted alone; a file is on the walk when it ran for every one of them
  // (a timer's work, pruning say, that happens to fall in one count is not the order's).
  let walked: string[] | null = null;
  let order: Awaited<ReturnType<typeof sendDspOrder>> | undefined;
  for (let i = 0; i < 5; i++) {
    await filesRun(session);
    order = await sendDspOrder(service.url, secrets.webhookSecret, merchant.storeId);
    const files = await filesRun(session);
    walked = walked ? walked.filter((file) => files.includes(file)) : files;
  }
  walked = walked!.filter((file) => !file.startsWith(`src${path.sep}sandbox`));
  service.services.delivery.dispatch = dispatch;
  for (const message of held) dispatch(message);
  await session.post('Profiler.stopPreciseCoverage');
  session.disconnect();

  console.log(`order.created answered ${order!.status}; ${walked.length} files of src/ ran for it:`);
  for (const file of walked) console.log(`  ${file}`);
  console.log(`set off after the answer: ${held.map((m) => m.kind).join(', ') || 'nothing'}`);
} finally {
  await pos.close();
  await partnerEndpoint.close();
  await service.stop();
}
