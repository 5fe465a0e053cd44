// Partner authentication end to end (docs/reference.md § Resources), over REST and GraphQL. A
// token is never widened: not by what it asks for, nor through the tokens and refreshes it makes
// (its SSO sessions: ../sso/sso.test.ts; an organization token's reach: ../access/access.test.ts).
import { GraphQLClient, type ClientError } from 'graphql-request';
import { SignJWT } from 'jose';
import { graphql } from '../../generated/gql.js';
import { clockMovedBy } from '../../support/clock.js';
import { createOrg } from '../../support/flows.js';
import { graphqlPost, startTestService, post, request, tokenPair, type TestService } from '../../support/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

const gql = (token?: string) => new GraphQLClient(`${service.url}/graphql`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
const now = () => Math.floor(Date.now() / 1000);

async function newOrg(token: string, providerId = `m-${Math.random()}`) {
  const res = await post(
    service.url,
    '/v1/onboarding/org',
    { name: 'Pizza Place', provider_id: providerId, user: { email: 'owner@pizza.example', first_name: 'Ada' } },
    token,
  );
  expect(res.status).toBe(201);
  return res.body as { org_id: string; user_id: string };
}

describe('token operation', () => {
  test('client_credentials over JSON answers 201 with a bearer token, seconds and all allowed scopes', async () => {
    const partner = await service.partner(['user', 'onboarding']);
    const res = await post(service.url, '/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ token_type: 'bearer', scopes: ['user', 'onboarding'], refresh_token_expires_in: 30 * 24 * 3600 });
    expect(res.body.expires_in).toBeGreaterThan(3590);
    expect(res.body.expires_in).toBeLessThanOrEqual(3600);
    expect(res.body.access_token.split('.')).toHaveLength(3);
  });

  test('client_credentials form-encoded, as RFC 6749 clients send it, is answered as RFC 6749 5.1 (200, scope as a string)', async () => {
    const partner = await service.partner();
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
      scope: 'sso user',
      exp: String(now() + 600),
    });
    const res = await request(service.url, 'POST', '/v1/oauth/token', {
      raw: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.scopes).toEqual(['sso', 'user']);
    expect(res.body.scope).toBe('sso user');
    expect(res.body.expires_in).toBeGreaterThan(590);
    expect(res.body.expires_in).toBeLessThanOrEqual(600);
  });

  test('scopes beyond those granted to the partner are refused', async () => {
    const partner = await service.partner(['sso']);
    const res = await post(service.url, '/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
      scopes: ['sso', 'billing'],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'invalid_scope',
      code: 'invalid_scope',
      message: expect.stringContaining('billing'),
    });
  });

  test.each([
    ['more than one hour ahead', () => now() + 3700],
    ['in the past', () => now() - 10],
    ['not a number', () => 'soon'],
  ])('exp %s is 400 invalid_request', async (_case, exp) => {
    const partner = await service.partner();
    const res = await post(service.url, '/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
      exp: exp(),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      statusCode: 400,
      error: 'invalid_request',
      code: 'invalid_request',
      message: expect.stringContaining('exp'),
    });
  });

  test("an unknown scope is 400 RFC 6749's invalid_scope and names the scopes", async () => {
    const partner = await service.partner();
    const res = await post(service.url, '/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
      scopes: ['user', 'admin'],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      statusCode: 400,
      error: 'invalid_scope',
      code: 'invalid_scope',
      message: expect.stringContaining('scopes'),
    });
  });

  test('an unknown enum or missing field is 400 and names the field', async () => {
    const bad = await post(service.url, '/v1/oauth/token', { grant_type: 'password', client_id: 'x', client_secret: 'y' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('grant_type');
    const missing = await post(service.url, '/v1/oauth/token', { grant_type: 'client_credentials', client_id: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('client_secret');
  });

  test('wrong credentials are 401 invalid_client without saying which part was wrong', async () => {
    const partner = await service.partner();
    const wrongSecret = await post(service.url, '/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: partner.clientId,
      client_secret: 'nope',
    });
    const unknownClient = await post(service.url, '/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: 'pc_unknown',
      client_secret: partner.clientSecret,
    });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body).toEqual({
      statusCode: 401,
      error: 'invalid_client',
      code: 'invalid_client',
      message: 'client authentication failed',
    });
    expect(unknownClient.body).toEqual(wrongSecret.body);
  });

  test('refresh tokens rotate, are single-use, and a reused one revokes the whole family', async () => {
    const partner = await service.partner();
    const first = await post(service.url, '/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
    });
    const creds = { client_id: partner.clientId, client_secret: partner.clientSecret };
    const second = await post(service.url, '/v1/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      ...creds,
    });
    expect(second.status).toBe(201);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    await newOrg(second.body.access_token);

    const replay = await post(service.url, '/v1/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      ...creds,
    });
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('invalid_grant');
    // The leak is contained: the tokens issued from that family no longer work.
    const revoked = await post(
      service.url,
      '/v1/onboarding/org',
      { name: 'x', provider_id: 'y', user: { email: 'a@b.example' } },
      second.body.access_token,
    );
    expect(revoked.status).toBe(401);
    const next = await post(service.url, '/v1/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: second.body.refresh_token,
      ...creds,
    });
    expect(next.status).toBe(400);
  });

  test('the token mutation in GraphQL gives the same answers', async () => {
    const partner = await service.partner(['user']);
    const Token = graphql(`
      mutation Token($input: TokenInput!) {
        token(input: $input) { accessToken tokenType expiresIn scopes refreshToken }
      }
    `);
    const ok = await gql().request(Token, {
      input: { grantType: 'client_credentials', clientId: partner.clientId, clientSecret: partner.clientSecret },
    });
    expect(ok.token).toMatchObject({ tokenType: 'bearer', scopes: ['user'] });
    const failure = await gql()
      .request(Token, { input: { grantType: 'client_credentials', clientId: partner.clientId, clientSecret: 'bad' } })
      .catch((e: ClientError) => e);
    expect((failure as ClientError).response.errors?.[0]?.extensions).toEqual({ code: 'invalid_client', statusCode: 401 });
  });
});

describe('bearer tokens on every other operation', () => {
  const body = { name: 'Org', provider_id: 'p-1', user: { email: 'u@x.example' } };

  test('missing, malformed, badly signed and expired tokens are 401 with the error body', async () => {
    const missing = await post(service.url, '/v1/onboarding/org', body);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', code: 'invalid_token' });
    const malformed = await request(service.url, 'POST', '/v1/onboarding/org', { body, headers: { authorization: 'Token abc' } });
    expect(malformed.status).toBe(401);
    const forged = await post(service.url, '/v1/onboarding/org', body, 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl');
    expect(forged.status).toBe(401);
    const partner = await service.partner();
    const expired = await new SignJWT({ sid: 'ses_x', scp: ['user'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(partner.partnerId)
      .setIssuedAt(now() - 7200)
      .setExpirationTime(now() - 3600)
      .sign(service.services.config.signingKey);
    const res = await post(service.url, '/v1/onboarding/org', body, expired);
    expect(res.status).toBe(401);
    expect(res.body.message).toContain('expired');
    // Our own secret under another algorithm: only HS256 tokens are ours.
    const otherAlgorithm = await new SignJWT({ sid: 'ses_x', scp: ['user'] })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(partner.partnerId)
      .setExpirationTime(now() + 3600)
      .sign(service.services.config.signingKey);
    const refused = await post(service.url, '/v1/onboarding/org', body, otherAlgorithm);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ statusCode: 401, code: 'invalid_token' });
  });

  test('a token that worked is refused once it expires', async () => {
    const partner = await service.partner();
    const exp = now() + 10;
    const issued = await post(service.url, '/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
      exp,
    });
    await newOrg(issued.body.access_token);
    // The clock is moved past the expiry rather than waited for.
    const restore = clockMovedBy(exp * 1000 - Date.now() + 1000);
    try {
      const late = await post(service.url, '/v1/onboarding/org', { ...body, provider_id: 'late' }, issued.body.access_token);
      expect(late.status).toBe(401);
      expect(late.body.message).toContain('expired');
    } finally {
      restore();
    }
  });

  test('a token without the needed scope is 403 insufficient_scope and changes nothing', async () => {
    const partner = await service.partner(['sso']);
    const res = await post(service.url, '/v1/onboarding/org', { ...body, provider_id: 'scoped' }, partner.token);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden', code: 'insufficient_scope' });
    expect(await service.services.db.organization.count({ where: { providerId: 'scoped' } })).toBe(0);
  });

  test('GraphQL reports the same 401 in extensions', async () => {
    const Org = graphql(`query OrgById($id: ID!) { organization(id: $id) { id name } }`);
    const error = (await gql('not-a-token')
      .request(Org, { id: 'org_x' })
      .catch((e: ClientError) => e)) as ClientError;
    expect(error.response.errors?.[0]?.extensions).toEqual({ code: 'invalid_token', statusCode: 401 });
  });
});

describe('createPartnerToken', () => {
  test('REST: a named token for one of the partner organizations, returned once, usable for that organization only', async () => {
    const partner = await service.partner();
    const org = await newOrg(partner.token);
    const other = await newOrg(partner.token);
    const res = await post(
      service.url,
      '/v1/oauth/partner-tokens',
      { org_id: org.org_id, token_name: 'pos-sync', scopes: ['user'] },
      partner.token,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ org_id: org.org_id, token_name: 'pos-sync', scopes: ['user'], token_type: 'bearer' });
    expect(res.body._id).toMatch(/^ses_/);
    const OrgName = graphql(`query OrgName($id: ID!) { organization(id: $id) { id name users { email } } }`);
    const own = await gql(res.body.access_token).request(OrgName, { id: org.org_id });
    expect(own.organization).toEqual({ id: org.org_id, name: 'Pizza Place', users: [{ email: 'owner@pizza.example' }] });
    const foreign = (await gql(res.body.access_token)
      .request(OrgName, { id: other.org_id })
      .catch((e: ClientError) => e)) as ClientError;
    expect(foreign.response.errors?.[0]?.extensions).toEqual({ code: 'not_found', statusCode: 404 });
    // An organization token cannot mint further tokens.
    const nested = await post(
      service.url,
      '/v1/oauth/partner-tokens',
      { org_id: org.org_id, token_name: 'again', scopes: ['user'] },
      res.body.access_token,
    );
    expect(nested.status).toBe(403);
  });

  test('another partner organization is 404, unknown scopes and missing fields are 400', async () => {
    const a = await service.partner();
    const b = await service.partner();
    const orgOfB = await newOrg(b.token);
    const foreign = await post(
      service.url,
      '/v1/oauth/partner-tokens',
      { org_id: orgOfB.org_id, token_name: 't', scopes: ['user'] },
      a.token,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
    const badScope = await post(
      service.url,
      '/v1/oauth/partner-tokens',
      { org_id: orgOfB.org_id, token_name: 't', scopes: ['admin'] },
      b.token,
    );
    expect(badScope.status).toBe(400);
    expect(badScope.body.code).toBe('invalid_request');
    const missing = await post(service.url, '/v1/oauth/partner-tokens', { org_id: orgOfB.org_id, scopes: ['user'] }, b.token);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('token_name is required');
  });

  test('GraphQL mutation', async () => {
    const partner = await service.partner();
    const org = await newOrg(partner.token);
    const Create = graphql(`
      mutation NamedToken($input: CreatePartnerTokenInput!) {
        createPartnerToken(input: $input) { id orgId tokenName scopes accessToken expiresIn }
      }
    `);
    const res = await gql(partner.token).request(Create, { input: { orgId: org.org_id, tokenName: 'dashboard', scopes: ['onboarding'] } });
    expect(res.createPartnerToken).toMatchObject({ orgId: org.org_id, tokenName: 'dashboard', scopes: ['onboarding'] });
    expect(res.createPartnerToken.expiresIn).toBeGreaterThan(3600);
  });
});

test('a token request is never widened: scope (RFC 6749) and scopes (docs/reference.md), in JSON and in forms', async () => {
  const partner = await service.partner();
  const ask = async (fields: Record<string, unknown>, form = false) => {
    const body = { grant_type: 'client_credentials', client_id: partner.clientId, client_secret: partner.clientSecret, ...fields };
    const res = form
      ? await request(service.url, 'POST', '/v1/oauth/token', {
          raw: new URLSearchParams(body as Record<string, string>).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      : await post(service.url, '/v1/oauth/token', body);
    return res.body.scopes ?? res.body.code;
  };
  expect(await ask({ scope: 'user' })).toEqual(['user']);
  expect(await ask({ scope: 'user sso' })).toEqual(['user', 'sso']);
  expect(await ask({ scopes: ['billing'] })).toEqual(['billing']);
  expect(await ask({ scope: 'user' }, true)).toEqual(['user']);
  expect(await ask({ scope: 'user onboarding' }, true)).toEqual(['user', 'onboarding']);
  expect(await ask({ scope: 'everything' })).toBe('invalid_scope');
  const limited = await service.partner(['user']);
  const wider = await post(service.url, '/v1/oauth/token', {
    grant_type: 'client_credentials',
    client_id: limited.clientId,
    client_secret: limited.clientSecret,
    scope: 'user billing',
  });
  expect(wider.body).toMatchObject({ statusCode: 400, code: 'invalid_scope' });
});

describe('a token hands on only scopes it holds', () => {
  test('a user-only token gets no onboarding or sso token, over REST and GraphQL, and nothing is made', async () => {
    const partner = await service.partner();
    const { orgId } = await createOrg(service.url, partner.token);
    const userOnly = (await tokenPair(service.url, partner.clientId, partner.clientSecret, ['user'])).access_token;
    const sessions = await service.services.db.session.count({ where: { partnerId: partner.partnerId } });

    const rest = await post(
      service.url,
      '/v1/oauth/partner-tokens',
      { org_id: orgId, token_name: 'wider', scopes: ['onboarding', 'sso'] },
      userOnly,
    );
    expect(rest.status).toBe(403);
    expect(rest.body).toMatchObject({ statusCode: 403, code: 'insufficient_scope', message: expect.stringContaining('onboarding, sso') });
    const graph = await graphqlPost(
      service.url,
      userOnly,
      'mutation($i: CreatePartnerTokenInput!) { createPartnerToken(input: $i) { accessToken } }',
      {
        i: { orgId, tokenName: 'wider', scopes: ['sso'] },
      },
    );
    expect(graph.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', statusCode: 403 });
    expect(await service.services.db.session.count({ where: { partnerId: partner.partnerId } })).toBe(sessions);

    // What it holds, it may hand on.
    const same = await post(service.url, '/v1/oauth/partner-tokens', { org_id: orgId, token_name: 'same', scopes: ['user'] }, userOnly);
    expect(same.status).toBe(201);
    expect(same.body.scopes).toEqual(['user']);
  });

  test('a refresh gives no scope its partner no longer holds', async () => {
    const partner = await service.partner();
    const pair = await tokenPair(service.url, partner.clientId, partner.clientSecret, ['user', 'onboarding']);
    await service.services.db.partner.update({ where: { id: partner.partnerId }, data: { scopes: 'user' } });
    const refreshed = await post(service.url, '/v1/oauth/token', {
      grant_type: 'refresh_token',
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
      refresh_token: pair.refresh_token,
    });
    expect(refreshed.status).toBe(201);
    expect(refreshed.body.scopes).toEqual(['user']);
  });
});
