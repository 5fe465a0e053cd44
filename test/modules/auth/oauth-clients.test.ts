// The token endpoint with the ecosystem's own OAuth 2.0 clients (docs/reference.md § Authentication): openid-client 6
// with client_secret_post and client_secret_basic, and simple-oauth2 with its defaults (Basic,
// form body). Each gets a token that works on the API, with exactly the scope it asked for, and
// each sees a wrong secret as RFC 6749's invalid_client.
import * as oidc from 'openid-client';
import { ClientCredentials } from 'simple-oauth2';
import { post, request, startTestService, type TestService } from '../../support/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

/** openid-client against our token endpoint (no discovery document: the endpoint is given). */
function openidConfig(clientId: string, auth: oidc.ClientAuth) {
  const config = new oidc.Configuration(
    { issuer: service.url, token_endpoint: `${service.url}/v1/oauth/token` },
    clientId,
    undefined,
    auth,
  );
  oidc.allowInsecureRequests(config); // plain http on loopback, in this test only
  return config;
}

const works = async (accessToken: string) => (await post(service.url, '/graphql', { query: '{ deliveries { id } }' }, accessToken)).status;

test.each([
  ['client_secret_post', (secret: string) => oidc.ClientSecretPost(secret)],
  ['client_secret_basic', (secret: string) => oidc.ClientSecretBasic(secret)],
])('openid-client with %s gets a token with the scope it asked for', async (_method, auth) => {
  const partner = await service.partner();
  const tokens = await oidc.clientCredentialsGrant(openidConfig(partner.clientId, auth(partner.clientSecret)), { scope: 'user' });
  expect(tokens.token_type.toLowerCase()).toBe('bearer');
  expect(tokens.scope).toBe('user');
  expect(tokens.expiresIn()).toBeGreaterThan(3500);
  expect(await works(tokens.access_token)).toBe(200);
});

test('openid-client sees a wrong secret as invalid_client, and with Basic as the challenge RFC 6749 asks for', async () => {
  const partner = await service.partner();
  const inBody = await oidc
    .clientCredentialsGrant(openidConfig(partner.clientId, oidc.ClientSecretPost('wrong')), { scope: 'user' })
    .catch((error: unknown) => error);
  expect(inBody).toBeInstanceOf(oidc.ResponseBodyError);
  expect(inBody).toMatchObject({ error: 'invalid_client', status: 401 });
  const basic = await oidc
    .clientCredentialsGrant(openidConfig(partner.clientId, oidc.ClientSecretBasic('wrong')), { scope: 'user' })
    .catch((error: unknown) => error);
  expect(basic).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
  expect(basic).toMatchObject({ status: 401, cause: [expect.objectContaining({ scheme: 'basic' })] });
});

test('simple-oauth2 with its defaults (Basic, form body) gets a token; a wrong secret is invalid_client', async () => {
  const partner = await service.partner();
  const client = (secret: string) =>
    new ClientCredentials({ client: { id: partner.clientId, secret }, auth: { tokenHost: service.url, tokenPath: '/v1/oauth/token' } });
  const token = await client(partner.clientSecret).getToken({ scope: ['user', 'sso'] });
  expect(token.token).toMatchObject({ token_type: 'bearer', scope: 'user sso', scopes: ['user', 'sso'] });
  expect(await works(token.token.access_token as string)).toBe(200);
  const refused = (await client('wrong')
    .getToken({ scope: 'user' })
    .catch((error: unknown) => error)) as { output?: { statusCode: number }; data?: { payload?: Record<string, unknown> } };
  expect(refused.output?.statusCode).toBe(401);
});

test('HTTP Basic with a wrong secret is 401 with WWW-Authenticate and RFC 6749 error fields; both ways at once is 400', async () => {
  const partner = await service.partner();
  const basic = (secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(partner.clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const wrong = await request(service.url, 'POST', '/v1/oauth/token', {
    raw: 'grant_type=client_credentials',
    headers: { ...form, authorization: basic('wrong') },
  });
  expect(wrong.status).toBe(401);
  expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
  expect(wrong.body).toMatchObject({
    statusCode: 401,
    code: 'invalid_client',
    error: 'invalid_client',
    error_description: expect.any(String),
  });
  const both = await request(service.url, 'POST', '/v1/oauth/token', {
    raw: `grant_type=client_credentials&client_secret=${partner.clientSecret}`,
    headers: { ...form, authorization: basic(partner.clientSecret) },
  });
  expect(both.body).toMatchObject({ statusCode: 400, error: 'invalid_request' });
  const unsupported = await request(service.url, 'POST', '/v1/oauth/token', {
    raw: 'grant_type=password',
    headers: { ...form, authorization: basic(partner.clientSecret) },
  });
  expect(unsupported.body).toMatchObject({ statusCode: 400, error: 'unsupported_grant_type' });
  // JSON keeps docs/reference.md's answer: 201, and `error` is the status text.
  const json = await request(service.url, 'POST', '/v1/oauth/token', {
    body: { grant_type: 'client_credentials' },
    headers: { authorization: basic(partner.clientSecret) },
  });
  expect(json.status).toBe(201);
  const jsonWrong = await request(service.url, 'POST', '/v1/oauth/token', {
    body: { grant_type: 'client_credentials' },
    headers: { authorization: basic('wrong') },
  });
  expect(jsonWrong.body).toEqual({ statusCode: 401, error: 'invalid_client', code: 'invalid_client', message: expect.any(String) });
  expect(jsonWrong.headers.get('www-authenticate')).toMatch(/^Basic /);
});

test('openid-client configured by discovery alone (RFC 8414) gets a token, and an unknown scope is invalid_scope', async () => {
  const partner = await service.partner();
  const metadata = await fetch(`${service.url}/.well-known/oauth-authorization-server`).then((r) => r.json());
  expect(metadata).toMatchObject({
    issuer: service.url,
    token_endpoint: `${service.url}/v1/oauth/token`,
    grant_types_supported: ['client_credentials', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: expect.arrayContaining(['user', 'onboarding', 'sso']),
  });
  const config = await oidc.discovery(new URL(service.url), partner.clientId, partner.clientSecret, undefined, {
    algorithm: 'oauth2',
    execute: [oidc.allowInsecureRequests], // plain http on loopback, in this test only
  });
  const tokens = await oidc.clientCredentialsGrant(config, { scope: 'user onboarding' });
  expect(tokens.scope).toBe('user onboarding');
  expect(await works(tokens.access_token)).toBe(200);
  const unknown = await oidc.clientCredentialsGrant(config, { scope: 'user admin' }).catch((error: unknown) => error);
  expect(unknown).toBeInstanceOf(oidc.ResponseBodyError);
  expect(unknown).toMatchObject({ error: 'invalid_scope', status: 400 });
});
