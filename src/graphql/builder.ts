// The Pothos builder: plugins and their options only. Types live in src/modules/<area>/types.ts.
import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import { Forbidden, Unauthenticated } from '../common/errors.js';
import type { AuthInfo, Scope } from '../common/scopes.js';
import type { Context } from './context.js';

type ScopeFailure = { scope?: string; parameter?: unknown; failures?: ScopeFailure[] };
/** The scope that failed, inside a failure of several (`$all`): what the caller is told. */
const firstScopeFailure = (failure: ScopeFailure): ScopeFailure =>
  failure.scope || !failure.failures?.length ? failure : firstScopeFailure(failure.failures[0]!);

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  AuthScopes: {
    /** Any valid token: a partner login or a named partner token. */
    authenticated: boolean;
    /** A partner login (client credentials), not a token limited to one organization. */
    partner: boolean;
    /** The token carries this scope. */
    scope: Scope;
  };
  /** What a field behind each scope may rely on: `t.withAuth(...)` gives its resolver a
   * context whose caller is known, so no resolver asserts it. */
  AuthContexts: {
    authenticated: Context & { auth: AuthInfo };
    partner: Context & { auth: AuthInfo };
    scope: Context & { auth: AuthInfo };
  };
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    // A subscription is refused before its first event, not once per event (docs/reference.md § Partner API).
    authorizeOnSubscribe: true,
    authScopes: (ctx) => ({
      authenticated: ctx.auth !== null,
      partner: ctx.auth !== null && ctx.auth.orgId === null,
      scope: (scope: Scope) => ctx.auth?.scopes.includes(scope) ?? false,
    }),
    // 401 when the caller is not authenticated at all, 403 when the token lacks what is needed.
    unauthorizedError: (_parent, ctx, _info, result) => {
      if (!ctx.auth) return ctx.authError ?? new Unauthenticated();
      const failure = firstScopeFailure(result.failure as ScopeFailure);
      if (failure.scope === 'scope')
        return new Forbidden(`the token does not carry the ${String(failure.parameter)} scope this operation needs`, 'insufficient_scope');
      if (failure.scope === 'partner')
        return new Forbidden('an organization token cannot run this operation: it needs a partner login', 'insufficient_scope');
      return new Forbidden('the token does not carry the scope this operation needs', 'insufficient_scope');
    },
  },
  prisma: {
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'warn',
  },
});

builder.scalarType('JSON', {
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.queryType({});
builder.mutationType({});
