// GET /metrics (docs/reference.md § Operations): Prometheus text with HTTP requests by route and status and their
// latencies, GraphQL operations by name and outcome, outbox messages by kind and state, webhooks
// received and applied with their lag, rate-limit refusals and the process's own metrics; behind
// METRICS_TOKEN when it is set.
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { startPos } from '../support/sandbox.js';
import { merchantTakingOrders, placeOrder, until } from '../support/orders.js';
import { get, post, request, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let pos: SandboxPos;

beforeAll(async () => {
  service = await startTestService({ METRICS_TOKEN: 'scrape-me', RATE_LIMIT_TOKEN_PER_MINUTE: '20' });
  pos = await startPos(service);
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

const scrape = async () => {
  const res = await request(service.url, 'GET', '/metrics', { headers: { authorization: 'Bearer scrape-me' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.body as string;
};
/** The value of one series, by its name and labels as Prometheus prints them. */
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test('without the METRICS_TOKEN it is 401', async () => {
  expect((await get(service.url, '/metrics')).status).toBe(401);
  expect((await get(service.url, '/metrics', 'wrong')).status).toBe(401);
});

test('a scrape shows requests, GraphQL operations, the outbox, webhooks, rate-limit refusals and the process', async () => {
  const m = await merchantTakingOrders(service);
  const placed = await placeOrder(pos, m.storeId);
  await pos.waitFor('/v1/orders', 1);
  await post(service.url, '/graphql', { query: 'query Mine { deliveries { id } }' }, m.token);
  await post(service.url, '/graphql', { query: 'query Broken { order(id: "ord_none") { id } }' }, m.token);
  await fetch(`${pos.url}/v1/_sandbox/catalog-updated`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ location_id: `loc_2_${m.tid}` }),
  });
  for (let i = 0; i < 3; i++)
    await post(service.url, '/v1/oauth/token', { grant_type: 'client_credentials', client_id: 'pc_nobody', client_secret: 'x' });
  await get(service.url, '/no/such/path?client_secret=x');

  // The scrape once the catalog webhook is applied and the order delivered (both after their 2xx).
  const text = await until(async () => {
    const scraped = await scrape();
    const applied = (value(scraped, 'webhook_apply_lag_seconds_count{type="location.catalog.updated"}') ?? 0) >= 1;
    const delivered = (value(scraped, 'outbox_messages{kind="order.created",status="delivered"}') ?? 0) >= 1;
    return applied && delivered && scraped;
  });
  expect(placed.status).toBe(201);
  expect(value(text, 'http_request_duration_seconds_count{route="/v1/onboarding/org",method="POST",status="201"}')).toBe(1);
  expect(value(text, 'http_request_duration_seconds_count{route="unmatched",method="GET",status="404"}')).toBe(1);
  expect(text).not.toContain('client_secret');
  expect(value(text, 'graphql_operations_total{operation="Mine",outcome="ok"}')).toBe(1);
  expect(value(text, 'graphql_operations_total{operation="Broken",outcome="error"}')).toBe(1);
  expect(value(text, 'outbox_messages{kind="order.created",status="delivered"}')).toBe(1);
  expect(value(text, 'webhooks_received_total{channel="dsp",outcome="accepted"}')).toBe(1);
  expect(value(text, 'webhooks_received_total{channel="pos",outcome="accepted"}')).toBe(1);
  expect(value(text, 'webhooks_applied_total{type="location.catalog.updated",outcome="applied"}')).toBe(1);
  expect(value(text, 'webhook_apply_lag_seconds_count{type="location.catalog.updated"}')).toBe(1);
  expect(value(text, 'rate_limit_refusals_total{limit="token"}')).toBe(1);
  expect(value(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  expect(value(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
});
