// Feature flags and segments (docs/reference.md § Resources) over REST and GraphQL: targeting, segments,
// search, evaluation, tenancy, bad input; definitions from a file; our own switch through
// OpenFeature.
import { runMain } from '../../support/build.js';
import fs from 'node:fs';
import path from 'node:path';
import { GraphQLClient, type ClientError } from 'graphql-request';
import { graphql } from '../../generated/gql.js';
import { applyDefinitions } from '../../../src/modules/flags/definitions.js';
import { startPos } from '../../support/sandbox.js';
import { completeOnboarding, createOrg, ingest } from '../../support/flows.js';
import { request, startTestService, type TestService } from '../../support/service.js';

let service: TestService;
let a: { partnerId: string; token: string };
let b: { partnerId: string; token: string };

beforeAll(async () => {
  service = await startTestService();
  a = await service.partner();
  b = await service.partner();
});
afterAll(async () => {
  await service?.stop();
});

const rest = (method: string, url: string, body?: unknown, token = a.token) => request(service.url, method, url, { token, body });
const evaluate = (flag: string, context: unknown, partner = a.partnerId, token = a.token) =>
  rest('POST', `/v1/flags/${flag}/evaluate?partner_id=${partner}`, context, token);

describe('over REST', () => {
  beforeAll(async () => {
    // The CLI defines them, as an operator would (YAML or JSON file).
    const file = path.join(service.database.dataDir, 'flags.yaml');
    fs.writeFileSync(
      file,
      [
        'segments:',
        `  - { partner: ${a.partnerId}, key: beta }`,
        'flags:',
        `  - { partner: ${a.partnerId}, key: new-checkout, variations: [true, false], on: 0, off: 1, fallthrough: 1, segments: [beta] }`,
        `  - { partner: ${a.partnerId}, key: dark-mode, enabled: false, variations: ["dark", "light"] }`,
      ].join('\n'),
    );
    const { stdout } = await runMain(['flags', 'define', '--file', file, '--json'], {
      env: { ...process.env, DATA_DIR: service.database.dataDir, DATABASE_URL: service.database.url },
    }).catch((e: { stdout: string; stderr: string }) => {
      throw new Error(`flags define failed: ${e.stdout} ${e.stderr}`);
    });
    expect(JSON.parse(stdout)).toEqual({
      flags: [`${a.partnerId}/new-checkout`, `${a.partnerId}/dark-mode`],
      segments: [`${a.partnerId}/beta`],
    });
  });

  test('FALLTHROUGH before targeting, TARGET_MATCH after, back after removal; add and remove are harmless when repeated', async () => {
    expect((await evaluate('new-checkout', { key: 'user-1' })).body).toEqual({
      flagKey: 'new-checkout',
      value: false,
      enabled: true,
      reason: 'FALLTHROUGH',
    });
    const added = await rest('POST', `/v1/flags/new-checkout/contexts?partner_id=${a.partnerId}`, {
      contexts: [{ key: 'user-1', kind: 'user' }],
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ flagKey: 'new-checkout', targets: [{ key: 'user-1', kind: 'user' }] });
    expect(
      (
        await rest('POST', `/v1/flags/new-checkout/contexts?partner_id=${a.partnerId}`, {
          contexts: [
            { key: 'user-1', kind: 'user' },
            { key: 'user-1', kind: 'user' },
          ],
        })
      ).body.targets,
    ).toHaveLength(1);
    expect((await evaluate('new-checkout', { key: 'user-1' })).body).toEqual({
      flagKey: 'new-checkout',
      value: true,
      enabled: true,
      reason: 'TARGET_MATCH',
    });
    // The kind is part of the context: the same key of another kind is someone else.
    expect((await evaluate('new-checkout', { key: 'user-1', kind: 'device' })).body.reason).toBe('FALLTHROUGH');
    const removed = await rest('DELETE', `/v1/flags/new-checkout/contexts?partner_id=${a.partnerId}`, {
      contexts: [{ key: 'user-1', kind: 'user' }],
    });
    expect(removed.body).toEqual({ flagKey: 'new-checkout', targets: [] });
    expect(
      (await rest('DELETE', `/v1/flags/new-checkout/contexts?partner_id=${a.partnerId}`, { contexts: [{ key: 'user-1', kind: 'user' }] }))
        .status,
    ).toBe(200);
    expect((await evaluate('new-checkout', { key: 'user-1' })).body.reason).toBe('FALLTHROUGH');
  });

  test('SEGMENT_MATCH through an included segment; OFF when the flag is off', async () => {
    const added = await rest('POST', `/v1/segments/beta/contexts?partner_id=${a.partnerId}`, {
      contexts: [{ key: 'org-7', kind: 'organization' }],
    });
    expect(added.body).toEqual({ segmentKey: 'beta', targets: [{ key: 'org-7', kind: 'organization' }] });
    expect((await evaluate('new-checkout', { key: 'org-7', kind: 'organization' })).body).toEqual({
      flagKey: 'new-checkout',
      value: true,
      enabled: true,
      reason: 'SEGMENT_MATCH',
    });
    expect((await evaluate('dark-mode', { key: 'org-7', kind: 'organization' })).body).toEqual({
      flagKey: 'dark-mode',
      value: 'light',
      enabled: false,
      reason: 'OFF',
    });
    await rest('DELETE', `/v1/segments/beta/contexts?partner_id=${a.partnerId}`, { contexts: [{ key: 'org-7', kind: 'organization' }] });
    expect((await evaluate('new-checkout', { key: 'org-7', kind: 'organization' })).body.reason).toBe('FALLTHROUGH');
  });

  test('search finds contexts by substring and kind, honours limit, rejects 0, 51 and "abc"', async () => {
    await rest('POST', `/v1/flags/new-checkout/contexts?partner_id=${a.partnerId}`, {
      contexts: [{ key: 'alice@shop.example' }, { key: 'ALINA@shop.example' }, { key: 'bob@shop.example' }],
    });
    await rest('POST', `/v1/segments/beta/contexts?partner_id=${a.partnerId}`, {
      contexts: [{ key: 'alice-store', kind: 'organization' }, { key: 'alice@shop.example' }],
    });
    const byText = await rest('GET', `/v1/contexts?q=ali&partner_id=${a.partnerId}`);
    expect(byText.status).toBe(200);
    expect(byText.body.contexts).toEqual([
      { key: 'alice-store', kind: 'organization', flags: [], segments: ['beta'] },
      { key: 'alice@shop.example', kind: 'user', flags: ['new-checkout'], segments: ['beta'] },
      { key: 'ALINA@shop.example', kind: 'user', flags: ['new-checkout'], segments: [] },
    ]);
    expect((await rest('GET', '/v1/contexts?q=ali&kind=organization')).body.contexts.map((c: { key: string }) => c.key)).toEqual([
      'alice-store',
    ]);
    expect((await rest('GET', `/v1/contexts?q=shop&limit=2&partner_id=${a.partnerId}`)).body.contexts).toHaveLength(2);
    expect((await rest('GET', '/v1/contexts?q=shop')).body.contexts).toHaveLength(3);
    for (const limit of ['0', '51', 'abc', '2.5']) {
      const res = await rest('GET', `/v1/contexts?limit=${limit}`);
      expect({ limit, status: res.status, body: res.body }).toEqual({
        limit,
        status: 400,
        body: { statusCode: 400, error: 'Bad Request', code: 'invalid_request', message: 'limit must be a whole number from 1 to 50' },
      });
    }
  });

  test('bad contexts, unknown flags and a missing partner_id are refused and change nothing', async () => {
    const before = await service.services.db.flagTarget.count();
    const cases: [string, string, unknown, number][] = [
      ['POST', `/v1/flags/new-checkout/contexts?partner_id=${a.partnerId}`, { contexts: [{ key: 'x', kind: 'multi' }] }, 400],
      ['POST', `/v1/flags/new-checkout/contexts?partner_id=${a.partnerId}`, { contexts: [{ key: 'x', kind: 'kind' }] }, 400],
      ['POST', `/v1/flags/new-checkout/contexts?partner_id=${a.partnerId}`, { contexts: [{ key: 'x', kind: 'has space' }] }, 400],
      ['POST', `/v1/flags/new-checkout/contexts?partner_id=${a.partnerId}`, { contexts: [{ kind: 'user' }] }, 400],
      ['POST', `/v1/flags/new-checkout/contexts?partner_id=${a.partnerId}`, {}, 400],
      ['POST', '/v1/flags/new-checkout/contexts', { contexts: [{ key: 'x' }] }, 400],
      ['POST', `/v1/flags/nope/contexts?partner_id=${a.partnerId}`, { contexts: [{ key: 'x' }] }, 404],
      ['POST', `/v1/segments/nope/contexts?partner_id=${a.partnerId}`, { contexts: [{ key: 'x' }] }, 404],
      ['POST', `/v1/flags/nope/evaluate?partner_id=${a.partnerId}`, { key: 'x' }, 404],
      ['POST', `/v1/flags/new-checkout/evaluate?partner_id=${a.partnerId}`, {}, 400],
    ];
    for (const [method, url, body, status] of cases) {
      const res = await rest(method, url, body);
      expect({ url, body, status: res.status, code: res.body.code }).toEqual({
        url,
        body,
        status,
        code: status === 404 ? 'not_found' : 'invalid_request',
      });
    }
    expect(await service.services.db.flagTarget.count()).toBe(before);
  });

  test('another partner neither sees nor changes these flags', async () => {
    // Naming the other partner is refused outright.
    expect((await evaluate('new-checkout', { key: 'user-1' }, a.partnerId, b.token)).status).toBe(403);
    expect(
      (await rest('POST', `/v1/flags/new-checkout/contexts?partner_id=${a.partnerId}`, { contexts: [{ key: 'intruder' }] }, b.token))
        .status,
    ).toBe(403);
    // As itself, it has no such flag or segment, and its search is empty.
    expect((await evaluate('new-checkout', { key: 'user-1' }, b.partnerId, b.token)).status).toBe(404);
    expect(
      (await rest('POST', `/v1/flags/new-checkout/contexts?partner_id=${b.partnerId}`, { contexts: [{ key: 'intruder' }] }, b.token))
        .status,
    ).toBe(404);
    expect(
      (await rest('DELETE', `/v1/segments/beta/contexts?partner_id=${b.partnerId}`, { contexts: [{ key: 'alice@shop.example' }] }, b.token))
        .status,
    ).toBe(404);
    expect((await rest('GET', `/v1/contexts?partner_id=${b.partnerId}`, undefined, b.token)).body).toEqual({ contexts: [] });
    expect((await rest('GET', '/v1/contexts?q=intruder')).body.contexts).toEqual([]);
  });
});

test('over GraphQL: the same targeting, segment and search operations', async () => {
  await applyDefinitions(service.services.db, {
    segments: [{ partner: a.partnerId, key: 'vip' }],
    flags: [{ partner: a.partnerId, key: 'gql-flag', variations: ['gold', 'plain'], segments: ['vip'] }],
  });
  const client = new GraphQLClient(`${service.url}/graphql`, { headers: { authorization: `Bearer ${a.token}` } });
  const Evaluate = graphql(
    `query GqlEvaluate($partnerId: ID!, $flagKey: String!, $key: String!, $kind: String) { evaluateFlag(partnerId: $partnerId, flagKey: $flagKey, key: $key, kind: $kind) { flagKey value enabled reason } }`,
  );
  const AddFlag = graphql(
    `mutation GqlAddFlag($input: ChangeContextsInput!) { addFlagContexts(input: $input) { flagKey targets { key kind } } }`,
  );
  const RemoveFlag = graphql(
    `mutation GqlRemoveFlag($input: ChangeContextsInput!) { removeFlagContexts(input: $input) { flagKey targets { key kind } } }`,
  );
  const AddSegment = graphql(
    `mutation GqlAddSegment($input: ChangeContextsInput!) { addSegmentContexts(input: $input) { segmentKey targets { key kind } } }`,
  );
  const Search = graphql(
    `query GqlSearch($q: String, $kind: String, $limit: String) { searchContexts(q: $q, kind: $kind, limit: $limit) { contexts { key kind flags segments } } }`,
  );
  const vars = { partnerId: a.partnerId, flagKey: 'gql-flag', key: 'gql-user' };

  expect((await client.request(Evaluate, vars)).evaluateFlag).toEqual({
    flagKey: 'gql-flag',
    value: 'plain',
    enabled: true,
    reason: 'FALLTHROUGH',
  });
  expect(
    (await client.request(AddFlag, { input: { partnerId: a.partnerId, key: 'gql-flag', contexts: [{ key: 'gql-user' }] } })).addFlagContexts
      .targets,
  ).toEqual([{ key: 'gql-user', kind: 'user' }]);
  expect((await client.request(Evaluate, vars)).evaluateFlag).toMatchObject({ value: 'gold', reason: 'TARGET_MATCH' });
  await client.request(RemoveFlag, { input: { partnerId: a.partnerId, key: 'gql-flag', contexts: [{ key: 'gql-user' }] } });
  await client.request(AddSegment, { input: { partnerId: a.partnerId, key: 'vip', contexts: [{ key: 'gql-user' }] } });
  expect((await client.request(Evaluate, vars)).evaluateFlag).toMatchObject({ value: 'gold', reason: 'SEGMENT_MATCH' });
  expect((await client.request(Search, { q: 'gql-' })).searchContexts.contexts).toEqual([
    { key: 'gql-user', kind: 'user', flags: [], segments: ['vip'] },
  ]);
  const bad = (await client.request(Search, { limit: '51' }).catch((e: ClientError) => e)) as ClientError;
  expect(bad.response.errors?.[0]?.extensions).toEqual({ code: 'invalid_request', statusCode: 400 });
  const foreign = (await client.request(Evaluate, { ...vars, partnerId: b.partnerId }).catch((e: ClientError) => e)) as ClientError;
  expect(foreign.response.errors?.[0]?.extensions).toEqual({ code: 'forbidden', statusCode: 403 });
});

test('FLAGS_FILE is loaded at start-up, and pos-connection-notices steers connection notices through OpenFeature', async () => {
  const dir = fs.mkdtempSync(path.join(service.database.dataDir, 'ff-'));
  const file = path.join(dir, 'flags.json');
  // Off for every POS but sandbox-pos... then off for it too once its target is gone.
  fs.writeFileSync(
    file,
    JSON.stringify({
      flags: [
        { key: 'pos-connection-notices', variations: [true, false], fallthrough: 1, targets: [{ kind: 'provider', key: 'other-pos' }] },
      ],
    }),
  );
  const other = await startTestService({ FLAGS_FILE: file });
  const pos = await startPos(other);
  try {
    const partner = await other.partner();
    const { orgId } = await createOrg(other.url, partner.token);
    const onboarding = await completeOnboarding(other.url, partner.token, orgId, 'pos');
    await ingest(other.url, partner.token, onboarding._id, [`loc_${onboarding.integration_id}_de`]);
    // sandbox-pos has connection notices on in its registration, but the flag says no.
    expect(await other.services.db.outboxMessage.count({ where: { kind: 'location.connect' } })).toBe(0);

    await applyDefinitions(other.services.db, {
      flags: [
        { key: 'pos-connection-notices', variations: [true, false], fallthrough: 1, targets: [{ kind: 'provider', key: 'sandbox-pos' }] },
      ],
    });
    await ingest(other.url, partner.token, onboarding._id, [`loc_2_${onboarding.integration_id}`]);
    const [notice] = await pos.waitFor('/v1/locations/connect', 1);
    expect(notice!.body).toEqual({ location_id: `loc_2_${onboarding.integration_id}` });
  } finally {
    await pos.close();
    await other.stop();
  }
});
