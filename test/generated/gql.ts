/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n      mutation Token($input: TokenInput!) {\n        token(input: $input) { accessToken tokenType expiresIn scopes refreshToken }\n      }\n    ": typeof types.TokenDocument,
    "query OrgById($id: ID!) { organization(id: $id) { id name } }": typeof types.OrgByIdDocument,
    "query OrgName($id: ID!) { organization(id: $id) { id name users { email } } }": typeof types.OrgNameDocument,
    "\n      mutation NamedToken($input: CreatePartnerTokenInput!) {\n        createPartnerToken(input: $input) { id orgId tokenName scopes accessToken expiresIn }\n      }\n    ": typeof types.NamedTokenDocument,
};
const documents: Documents = {
    "\n      mutation Token($input: TokenInput!) {\n        token(input: $input) { accessToken tokenType expiresIn scopes refreshToken }\n      }\n    ": types.TokenDocument,
    "query OrgById($id: ID!) { organization(id: $id) { id name } }": types.OrgByIdDocument,
    "query OrgName($id: ID!) { organization(id: $id) { id name users { email } } }": types.OrgNameDocument,
    "\n      mutation NamedToken($input: CreatePartnerTokenInput!) {\n        createPartnerToken(input: $input) { id orgId tokenName scopes accessToken expiresIn }\n      }\n    ": types.NamedTokenDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation Token($input: TokenInput!) {\n        token(input: $input) { accessToken tokenType expiresIn scopes refreshToken }\n      }\n    "): (typeof documents)["\n      mutation Token($input: TokenInput!) {\n        token(input: $input) { accessToken tokenType expiresIn scopes refreshToken }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query OrgById($id: ID!) { organization(id: $id) { id name } }"): (typeof documents)["query OrgById($id: ID!) { organization(id: $id) { id name } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query OrgName($id: ID!) { organization(id: $id) { id name users { email } } }"): (typeof documents)["query OrgName($id: ID!) { organization(id: $id) { id name users { email } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation NamedToken($input: CreatePartnerTokenInput!) {\n        createPartnerToken(input: $input) { id orgId tokenName scopes accessToken expiresIn }\n      }\n    "): (typeof documents)["\n      mutation NamedToken($input: CreatePartnerTokenInput!) {\n        createPartnerToken(input: $input) { id orgId tokenName scopes accessToken expiresIn }\n      }\n    "];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;