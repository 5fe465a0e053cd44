// A REST row's input, checked strictly as JSON against the GraphQL input types its operation
// takes, before GraphQL sees it (docs/reference.md § Partner API). GraphQL would coerce an object into a list of
// one and a string into a one-string list, and speak of `$input`, `CreateOrganizationUser!` and
// camelCase names; a partner speaking REST gets the wire field instead: `user is required`,
// `locations must be an array`, `locations[0].provider_id must be a string`.
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { isPlainObject } from '../common/input.js';

const SCALARS: Record<string, { test: (v: unknown) => boolean; what: string }> = {
  String: { test: (v) => typeof v === 'string', what: 'a string' },
  ID: { test: (v) => typeof v === 'string', what: 'a string' },
  Int: { test: (v) => Number.isInteger(v) && Math.abs(v as number) <= 2 ** 31 - 1, what: 'a whole number' },
  Float: { test: (v) => typeof v === 'number' && Number.isFinite(v), what: 'a number' },
  Boolean: { test: (v) => typeof v === 'boolean', what: 'true or false' },
};

const at = (path: string, key: string) => (path ? `${path}.${key}` : key);

function problemOf(value: unknown, type: GraphQLInputType, path: string, wire: (key: string) => string): string | null {
  if (isNonNullType(type)) {
    if (value === undefined || value === null) return `${path || 'the body'} is required`;
    return problemOf(value, type.ofType, path, wire);
  }
  if (value === undefined || value === null) return null;
  if (isListType(type)) {
    if (!Array.isArray(value)) return `${path} must be an array`;
    for (let i = 0; i < value.length; i++) {
      const problem = problemOf(value[i], type.ofType, `${path}[${i}]`, wire);
      if (problem) return problem;
    }
    return null;
  }
  if (isInputObjectType(type)) {
    if (!isPlainObject(value)) return `${path || 'the body'} must be an object`;
    const fields = type.getFields();
    for (const key of Object.keys(value)) if (!fields[key]) return `${at(path, wire(key))} is not a field of this request`;
    for (const field of Object.values(fields)) {
      const problem = problemOf(value[field.name], field.type, at(path, wire(field.name)), wire);
      if (problem) return problem;
    }
    return null;
  }
  if (isEnumType(type)) {
    const names = type.getValues().map((v) => v.name);
    return typeof value === 'string' && names.includes(value) ? null : `${path} must be one of ${names.join(', ')}`;
  }
  const scalar = SCALARS[getNamedType(type).name];
  return !scalar || scalar.test(value) ? null : `${path} must be ${scalar.what}`;
}

/**
 * The first problem with a row's variables, named in wire terms, or null. A variable named
 * `input` is the request body itself; any other is named by its wire name (`org_id`).
 */
export function wireInputProblem(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  wire: (key: string) => string,
): string | null {
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
    if (!type) continue;
    const problem = problemOf(variables[name], type, name === 'input' ? '' : wire(name), wire);
    if (problem) return problem;
  }
  return null;
}
