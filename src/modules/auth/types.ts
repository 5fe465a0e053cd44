// GraphQL for partner authentication: token and createPartnerToken.
import { builder } from '../../graphql/builder.js';
import { SCOPES } from '../../common/scopes.js';
import { createPartnerToken, issueToken } from './service.js';
import { tokenRequestOf, tokenRequestSchema } from './wire.js';
import { GRANT_TYPES } from './codes.js';
import { Invalid } from '../../common/errors.js';

export const ScopeEnum = builder.enumType('Scope', { values: SCOPES });
const GrantType = builder.enumType('GrantType', { values: GRANT_TYPES });

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
    accessToken: t.exposeString('accessToken'),
    tokenType: t.exposeString('tokenType'),
    refreshToken: t.exposeString('refreshToken'),
    expiresIn: t.exposeInt('expiresIn', { description: 'Seconds.' }),
    refreshTokenExpiresIn: t.exposeInt('refreshTokenExpiresIn', { description: 'Seconds.' }),
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
      return issueToken(ctx.services, tokenRequestOf(parsed.data));
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
    id: t.exposeID('id'),
    orgId: t.exposeID('orgId'),
    tokenName: t.exposeString('tokenName'),
    scopes: t.expose('scopes', { type: [ScopeEnum] }),
    accessToken: t.exposeString('accessToken', { description: 'Shown once; it is not stored.' }),
    tokenType: t.exposeString('tokenType'),
    expiresIn: t.exposeInt('expiresIn', { description: 'Seconds.' }),
  }),
});

builder.mutationField('createPartnerToken', (t) =>
  t.withAuth({ partner: true }).field({
    type: PartnerTokenPayload,
    description: 'A named token acting for one of your organizations with the given scopes.',
    args: { input: t.arg({ type: CreatePartnerTokenInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      createPartnerToken(ctx.services, ctx.auth, { orgId: String(input.orgId), tokenName: input.tokenName, scopes: input.scopes }),
  }),
);
