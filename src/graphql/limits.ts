// Operations are bounded before they run (docs/reference.md § Partner API): tokens while parsing, then depth,
// aliases, directives and cost as validation rules, with GraphQL Armor's envelop plugins. An
// operation over a bound is refused as 400 `query_too_complex` and does no work: parse and
// validation run before the context is built, so a refusal costs no database query. Yoga, our
// fast path (../server/graphql-post.ts) and graphql-ws all run through these plugins.
// REST rows run fixed documents of ours, bounded by construction.
import type { Plugin } from '@envelop/core';
import { GraphQLError, type ValidationContext } from 'graphql';
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

/** Entries one list of an operation's variables may hold (docs/api-guide.md, "Limits"): more
 * than any operation of the API takes (a bind or an ingest of a merchant's stores, a flag's
 * contexts), and few enough that coercing them, and answering one error per wrong entry, costs
 * nothing anyone notices. */
export const MAX_INPUT_LIST = 1000;
/** Values (scalars, lists and objects) in all of an operation's variables together. */
export const MAX_INPUT_VALUES = 10_000;
/** Errors one answer shows at most; the last one says how many more there were. */
export const MAX_ERRORS = 10;

/** Why the variables are over a bound, or null. Iterative, and it stops at the first bound
 * passed: a list of a million entries costs one look at its length. */
export function oversizedVariables(variables: unknown): string | null {
  let left = MAX_INPUT_VALUES;
  const stack: { value: unknown; path: string }[] = [{ value: variables, path: '' }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (--left < 0) return `the variables hold more than ${MAX_INPUT_VALUES} values`;
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      if (value.length > MAX_INPUT_LIST)
        return `${path || 'a variable'} holds ${value.length} entries; a list holds at most ${MAX_INPUT_LIST}`;
      if (value.length > left) return `the variables hold more than ${MAX_INPUT_VALUES} values`;
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], path: `${path}[${i}]` });
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > left) return `the variables hold more than ${MAX_INPUT_VALUES} values`;
    for (const key of keys) stack.push({ value: (value as Record<string, unknown>)[key], path: path ? `${path}.${key}` : key });
  }
  return null;
}

const invalidVariables = (message: string) =>
  new GraphQLError(message, { extensions: { code: 'invalid_request', statusCode: 400, http: { status: 400 } } });

/** The first MAX_ERRORS errors, the last of them saying how many were left out. */
function firstErrors<T extends { errors?: readonly GraphQLError[] }>(result: T): T {
  const errors = result.errors;
  if (!errors || errors.length <= MAX_ERRORS) return result;
  const kept = errors.slice(0, MAX_ERRORS - 1);
  const last = errors[MAX_ERRORS - 1]!;
  const more = errors.length - MAX_ERRORS;
  const summary = new GraphQLError(`${last.message} (and ${more} more errors like these, not shown)`, {
    nodes: last.nodes,
    path: last.path,
    originalError: last.originalError ?? undefined,
    extensions: last.extensions,
  });
  return { ...result, errors: [...kept, summary] };
}

/**
 * Bounds on what an operation's variables hold, checked before they are coerced, and on the
 * errors its answer carries. Coercion makes one error per wrong entry of a list, and graphql-jit
 * collects them all (graphql-js stops at 50): a list of 250,000 wrong entries held the event
 * loop for 46 s and answered 41 MB, before any caller was looked at.
 */
export const boundedVariables = (): Plugin => ({
  onExecute: ({ args, setResultAndStopExecution }) => {
    const problem = oversizedVariables(args.variableValues);
    if (problem) {
      setResultAndStopExecution({ errors: [invalidVariables(problem)] });
      return;
    }
    return { onExecuteDone: ({ result, setResult }) => void ('errors' in result && setResult(firstErrors(result))) };
  },
  onSubscribe: ({ args, setResultAndStopExecution }) => {
    const problem = oversizedVariables(args.variableValues);
    if (problem) setResultAndStopExecution({ errors: [invalidVariables(problem)] });
  },
});

/** A parsed-document cache bounded in bytes (by the text it is keyed by) as well as in entries:
 * Yoga's own keeps 1,024 whatever their size (100 documents of 500 KB held 60 MB). Least recently
 * used goes first. `bytes` is what it holds now (GET /metrics shows it). */
export function boundedCache<T>(maxBytes: number, maxEntries = 1024) {
  const entries = new Map<string, T>();
  let bytes = 0;
  return {
    get bytes() {
      return bytes;
    },
    get(key: string): T | undefined {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      // Most recently used last: Map keeps insertion order.
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key: string, value: T): void {
      // A text larger than a tenth of the whole is parsed each time rather than crowd out the rest.
      if (key.length > maxBytes / 10) return;
      if (entries.has(key)) bytes -= key.length;
      entries.delete(key);
      entries.set(key, value);
      bytes += key.length;
      for (const [oldest] of entries) {
        if (bytes <= maxBytes && entries.size <= maxEntries) break;
        entries.delete(oldest);
        bytes -= oldest.length;
      }
    },
  };
}
