// A REST row of docs/reference.md § Partner API, as data: the adapter (./rest.ts) runs it and the API
// reference (./openapi.ts) describes it, from the same row.
import { Kind, type FieldNode, type OperationDefinitionNode } from 'graphql';
import type { HTTPMethods } from 'fastify';

export type RestRequest = {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
};

/** Where a variable comes from: the body, a field of the body, a path or a query parameter. */
export type Source = 'body' | `body.${string}` | `path.${string}` | `query.${string}`;

export type RestRoute = {
  method: HTTPMethods;
  path: string;
  /** One line for the API reference (/docs). */
  summary: string;
  /** The GraphQL operation this route runs; its one root field's result is the answer. */
  document: string;
  /** Each variable's source; a dotted key (`input.id`) fills one field of an input variable. */
  from: Record<string, Source>;
  /** The part of the root field's result that is the body (`locations[0].catalog[0]`), when
   * not all of it; when the operation answers without that part, the call is 404 `missing`. */
  returns?: { path: string; missing: string };
  /** The flag calls' bodies use GraphQL's names (`flagKey`), as docs/reference.md does; all others the wire's. */
  names?: 'graphql';
  /** Leaves out fields that are null: docs/reference.md's optional fields; but those named in `keepNulls`
   * (wire names), whose null says something (`paused_until: null`: taking orders). */
  omitNulls?: boolean;
  keepNulls?: readonly string[];
  /** Fields (GraphQL names) whose values are already in wire names and pass as they are: an
   * event's `data` (JSON). */
  verbatim?: readonly string[];
  status: number;
};

const camel = (key: string) => (key === '_id' ? 'id' : key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()));
export const snake = (key: string) =>
  key === 'id' ? '_id' : key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/([a-z])(\d)/g, '$1_$2');

function mapKeys(value: unknown, rename: (key: string) => string, keep?: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, rename, keep));
  // Plain objects only (GraphQL results have a null prototype); dates and buffers pass as they are.
  // Whatever realm made it: a body parsed by a package of Node's realm under Jest's shared runtime.
  const proto = value && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto === null || (proto !== undefined && Object.getPrototypeOf(proto) === null)) {
    return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [rename(k), keep?.has(k) ? v : mapKeys(v, rename, keep)]));
  }
  return value;
}

/** docs/reference.md wire names (snake_case, `_id`) to GraphQL names (camelCase, `id`), and back; the values
 * of fields named in `verbatim` are left as they are. */
export const fromWire = (value: unknown) => mapKeys(value, camel);
export const toWire = (value: unknown, verbatim?: ReadonlySet<string>) => mapKeys(value, snake, verbatim);

/** `locations[0].catalog[0]` as steps: field names and list positions. */
export const stepsOf = (path: string): (string | number)[] =>
  path.split(/\.|(?=\[)/).map((step) => (step.startsWith('[') ? Number(step.slice(1, -1)) : step));

/** The one root field of a row's operation: its result is the answer. */
export function rootFieldOf(operation: OperationDefinitionNode): FieldNode {
  const [field, ...more] = operation.selectionSet.selections;
  if (field?.kind !== Kind.FIELD || more.length)
    throw new Error(`REST route ${operation.name?.value}: the operation must select one root field`);
  return field;
}
