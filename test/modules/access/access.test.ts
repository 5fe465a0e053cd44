// Who may touch what (src/modules/access): an organization token reaches only its organization,
// in every list and on every id, and says nothing of the others.
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import { bindStore, merchantWithStores } from '../../support/flows.js';
import { placeOrder, workerSays } from '../../support/orders.js';
import { startPos } from '../../support/sandbox.js';
import { get, graphqlPost, post, startTestService, type TestService } from '../../support/service.js';

let service: TestService;
let pos: SandboxPos;
beforeAll(async () => {
  service = await startTestService();
  pos = await startPos(service);
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

test('an organization token reaches only its organization: deliveries, redelivery, onboardings', async () => {
  const partner = await service.partner();
  const x = await merchantWithStores(service.url, partner.token);
  const y = await merchantWithStores(service.url, partner.token);
  expect((await bindStore(service.url, partner.token, y.dsp, y.location, y.stores.austin!)).status).toBe(201);
  // Y's order is refused by the POS: its delivery is dead.
  const died = workerSays(service.worker, 'dead', (message) => message.orgId === y.orgId && message.kind === 'order.created');
  await fetch(`${pos.url}/v1/_sandbox/fail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: '/v1/orders', count: 1, status: 400 }),
  });
  const placed = await placeOrder(pos, y.stores.austin!);
  const dead = await died;
  expect(dead).toMatchObject({ idempotencyKey: `order.created:${placed.body.order_id}`, partnerId: partner.partnerId });

  const xToken = (
    await post(
      service.url,
      '/v1/oauth/partner-tokens',
      { org_id: x.orgId, token_name: 'x only', scopes: ['user', 'onboarding'] },
      partner.token,
    )
  ).body.access_token as string;
  // Y has messages of every kind by now (connection notices delivered, the order dead); X sees only X's.
  const seen: string[] = [];
  for (const status of ['dead', 'delivered', 'pending']) {
    const listed = await graphqlPost(service.url, xToken, 'query($s: String) { deliveries(status: $s) { id } }', { s: status });
    seen.push(...listed.body.data.deliveries.map((d: { id: string }) => d.id));
  }
  const owners = await service.services.db.outboxMessage.findMany({ where: { id: { in: seen } }, select: { orgId: true } });
  expect(seen.length).toBeGreaterThan(0);
  expect(new Set(owners.map((o) => o.orgId))).toEqual(new Set([x.orgId]));
  expect(await service.services.db.outboxMessage.count({ where: { orgId: y.orgId, status: 'delivered' } })).toBeGreaterThan(0);
  // The partner's own login sees it.
  const own = await graphqlPost(service.url, partner.token, '{ deliveries(status: "dead") { id } }');
  expect(own.body.data.deliveries).toEqual([{ id: dead!.id }]);

  const redeliver = await graphqlPost(service.url, xToken, 'mutation($id: ID!) { redeliver(id: $id) { id } }', { id: dead!.id });
  expect(redeliver.body.errors[0].extensions).toMatchObject({ code: 'not_found', statusCode: 404 });
  expect(await service.services.db.outboxMessage.findUniqueOrThrow({ where: { id: dead!.id } })).toMatchObject({ status: 'dead' });

  const onboarding = await get(service.url, `/v1/onboarding/integrations/${y.dsp}`, xToken);
  expect(onboarding.status).toBe(404);
  expect(onboarding.body.message).not.toContain(y.orgId);
  expect(onboarding.body.message).toBe(`onboarding ${y.dsp} not found`);
});
