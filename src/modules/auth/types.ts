// GraphQL for partner authentication: token and createPartnerToken.
import { builder } from '../../graphql/builder.js';
import { SCOPES } from '../../common/scopes.js';
import { createPartnerToken, issueToken, tokenRequestSchema } from './service.js';
import { Invalid } from '../../common/errors.js';

export const ScopeEnum = builder.enumType('Scope', { values: SCOPES });
const GrantType = builder.enumType('GrantType', { values: ['client_credentials', 'refresh_token'] as const });

const TokenInput = builder.inputType('TokenInput', {
  fields: (t) => ({
    grantType: t.field({ type: GrantType, required: true }),
    clientId: t.string({ required: true }),
    clientSecret: t.string({ required: true }),
    exp: t.float({ description: 'Expiry of the access token, seconds since the epoch; at most one hour ahead.' }),
    scopes: t.field({ type: [ScopeEnum] }),
    refreshToken: t.string(),
  }),
});

type TokenShape = Awaited<ReturnType<typeof issueToken>>;
const TokenPayload = builder.objectRef<TokenShape>('TokenPayload').implement({
  fields: (t) => ({
    accessToken: t.exposeString('access_token'),
    tokenType: t.exposeString('token_type'),
    refreshToken: t.exposeString('refresh_token'),
    expiresIn: t.exposeInt('expires_in', { description: 'Seconds.' }),
    refreshTokenExpiresIn: t.exposeInt('refresh_token_expires_in', { description: 'Seconds.' }),
    scopes: t.expose('scopes', { type: [ScopeEnum] }),
  }),
});

builder.mutationField('token', (t) =>
  t.field({
    type: TokenPayload,
    description: 'Exchange client credentials or a refresh token for an access token.',
    args: { input: t.arg({ type: TokenInput, required: true }) },
    resolve: (_root, { input }, ctx) => {
      const parsed = tokenRequestSchema.safeParse({
        grant_type: input.grantType,
        client_id: input.clientId,
        client_secret: input.clientSecret,
        exp: input.exp ?? undefined,
        scopes: input.scopes ?? undefined,
        refresh_token: input.refreshToken ?? undefined,
      });
      if (!parsed.success) throw new Invalid(parsed.error.issues[0]!.message);
      return issueToken(ctx.services, parsed.data);
    },
  }),
);

const CreatePartnerTokenInput = builder.inputType('CreatePartnerTokenInput', {
  fields: (t) => ({
    orgId: t.id({ required: true }),
    tokenName: t.string({ required: true }),
    scopes: t.field({ type: [ScopeEnum], required: true }),
  }),
});

type PartnerTokenShape = Awaited<ReturnType<typeof createPartnerToken>>;
const PartnerTokenPayload = builder.objectRef<PartnerTokenShape>('PartnerTokenPayload').implement({
  fields: (t) => ({
    id: t.exposeID('_id'),
    orgId: t.exposeID('org_id'),
    tokenName: t.exposeString('token_name'),
    scopes: t.expose('scopes', { type: [ScopeEnum] }),
    accessToken: t.exposeString('access_token', { description: 'Shown once; it is not stored.' }),
    tokenType: t.exposeString('token_type'),
    expiresIn: t.exposeInt('expires_in', { description: 'Seconds.' }),
  }),
});

builder.mutationField('createPartnerToken', (t) =>
  t.withAuth({ partner: true }).field({
    type: PartnerTokenPayload,
    description: 'A named token acting for one of your organizations with the given scopes.',
    args: { input: t.arg({ type: CreatePartnerTokenInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      createPartnerToken(ctx.services, ctx.auth, { org_id: String(input.orgId), token_name: input.tokenName, scopes: input.scopes }),
  }),
);
