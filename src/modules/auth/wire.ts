// The token call on the wire (docs/api-guide.md, "Authentication"): its request as partners and
// RFC 6749 clients send it, checked at the edge, and its answer, in the wire's names; the service
// (./service.ts) takes and gives the domain's.
import { z } from 'zod';
import { SCOPES } from '../../common/scopes.js';
import type { Token, TokenRequest } from './service.js';
import { GRANT_TYPES } from './codes.js';

const scopeList = z.array(z.enum(SCOPES, { message: `scopes must be among ${SCOPES.join(', ')}` }), { message: 'scopes must be an array' });

/** The token request of docs/reference.md § Resources, checked at the edge. RFC 6749's space-separated `scope`
 * and docs/reference.md's `scopes` array are both honoured, in JSON and form bodies alike (docs/reference.md
 * 7.3); a request naming both asks for both. Either way the grant is never wider than asked. */
export const tokenRequestSchema = z
  .object({
    grant_type: z.enum(GRANT_TYPES, { message: 'grant_type must be client_credentials or refresh_token' }),
    client_id: z.string({ message: 'client_id is required' }).min(1, 'client_id is required'),
    client_secret: z.string({ message: 'client_secret is required' }).min(1, 'client_secret is required'),
    exp: z.number({ message: 'exp must be a number of seconds since the epoch' }).finite('exp must be a number').optional(),
    scopes: scopeList.optional(),
    scope: z.string({ message: 'scope must be a space-separated string' }).optional(),
    refresh_token: z.string({ message: 'refresh_token must be a string' }).optional(),
  })
  .transform(({ scope, ...request }, ctx) => {
    if (scope === undefined) return request;
    const parsed = scopeList.safeParse(scope.split(/[\s,]+/).filter(Boolean));
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', path: ['scope'], message: parsed.error.issues[0]!.message.replace(/^scopes/, 'scope') });
      return z.NEVER;
    }
    return { ...request, scopes: [...(request.scopes ?? []), ...parsed.data] };
  });

export const tokenResponseSchema = z.object({
  access_token: z.string().describe('A JWT for `Authorization: Bearer`.'),
  token_type: z.literal('bearer'),
  refresh_token: z.string().describe('Single use: the token call with grant_type refresh_token exchanges it for a new pair.'),
  expires_in: z.number().int().describe('Seconds the access token lives.'),
  refresh_token_expires_in: z.number().int(),
  scopes: z.array(z.enum(SCOPES)),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** A checked request, in the domain's names. */
export const tokenRequestOf = (request: z.infer<typeof tokenRequestSchema>): TokenRequest => ({
  grantType: request.grant_type,
  clientId: request.client_id,
  clientSecret: request.client_secret,
  exp: request.exp,
  scopes: request.scopes,
  refreshToken: request.refresh_token,
});

/** A token pair, in the wire's names. */
export const wireToken = (token: Token): TokenResponse => ({
  access_token: token.accessToken,
  token_type: token.tokenType,
  refresh_token: token.refreshToken,
  expires_in: token.expiresIn,
  refresh_token_expires_in: token.refreshTokenExpiresIn,
  scopes: token.scopes,
});
