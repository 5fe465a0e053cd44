// Operations are bounded before they run (docs/reference.md § Partner API): tokens while parsing, then depth,
// aliases, directives and cost as validation rules, with GraphQL Armor's envelop plugins. An
// operation over a bound is refused as 400 `query_too_complex` and does no work: parse and
// validation run before the context is built, so a refusal costs no database query. Yoga, our
// fast path (../server/graphql-post.ts) and graphql-ws all run through these plugins.
// REST rows run fixed documents of ours, bounded by construction.
import type { Plugin } from '@envelop/core';
import type { GraphQLError, ValidationContext } from 'graphql';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import type { Config } from '../config.js';

export type GraphqlLimits = Config['graphqlLimits'];

/** The errors these plugins raised: shown as `query_too_complex` (./errors.ts). */
const tooComplex = new WeakSet<GraphQLError>();
export const isTooComplex = (error: unknown): error is GraphQLError =>
  typeof error === 'object' && error !== null && tooComplex.has(error as GraphQLError);

/** Marks a refusal as ours, with the code and status a client reads, and without Armor's
 * "Syntax Error:" prefix (the operation's syntax is fine). Yoga keeps a code already set. */
function refused(error: GraphQLError): GraphQLError {
  tooComplex.add(error);
  error.message = error.message.replace(/^Syntax Error: /, '');
  Object.assign(error.extensions, { code: 'query_too_complex', statusCode: 400 });
  return error;
}

export function limitPlugins(limits: GraphqlLimits): Plugin[] {
  // The token bound stops the parser by throwing. The validation bounds report their error as
  // any rule does, instead of throwing out of validate (which every caller would have to catch).
  const rejectParse = [(_context: unknown, error: GraphQLError) => void refused(error)];
  const rejectRule = {
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(refused(error))],
  };
  return [
    maxTokensPlugin({ n: limits.maxTokens, onReject: rejectParse }),
    maxDepthPlugin({ n: limits.maxDepth, ...rejectRule }),
    maxAliasesPlugin({ n: limits.maxAliases, ...rejectRule }),
    maxDirectivesPlugin({ n: limits.maxDirectives, ...rejectRule }),
    costLimitPlugin({ maxCost: limits.maxCost, ...rejectRule }),
  ] as Plugin[];
}
