// The GraphQL over HTTP specification, as the graphql-http package audits a server
// (docs/reference.md § Partner API): every one of its serverAudits must be ok against our /graphql, through the
// fast path and through Yoga alike.
import { serverAudits } from 'graphql-http';
import { startTestService, type TestService } from '../support/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

test('every graphql-http server audit is ok', async () => {
  const audits = serverAudits({ url: () => `${service.url}/graphql`, fetchFn: fetch });
  const results = [];
  for (const audit of audits) results.push(await audit.fn());
  const notOk = results.filter((r) => r.status !== 'ok').map((r) => `${r.status}: ${r.name}: ${'reason' in r ? r.reason : ''}`);
  expect(notOk).toEqual([]);
  expect(results.length).toBeGreaterThanOrEqual(50);
});
