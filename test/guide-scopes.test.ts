// The partner guide's scope table (docs/api-guide.md, "Scopes") is the schema's: each operation's
// row says what the operation's authScopes require, and names every REST route that runs it.
import fs from 'node:fs';
import { parse, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { schema } from '../src/app/schema.js';
import { restRoutes } from '../src/app/routes.js';

type AuthScopes = { scope?: string; partner?: boolean; authenticated?: boolean; $all?: AuthScopes } | undefined;
const needs = (scopes: AuthScopes): string =>
  scopes?.$all
    ? `${needs({ partner: scopes.$all.partner })} with ${needs({ scope: scopes.$all.scope })}`
    : scopes?.scope
      ? `\`${scopes.scope}\``
      : scopes?.partner
        ? 'a partner login'
        : scopes?.authenticated
          ? 'any token'
          : 'none';

test("the partner guide's scope table names each operation's scope and REST routes, as the schema has them", () => {
  const guide = fs.readFileSync('docs/api-guide.md', 'utf8');
  const from = guide.indexOf('\n### Scopes\n');
  expect(from).toBeGreaterThan(0);
  const section = guide.slice(from, guide.indexOf('\n## ', from));
  const rows = new Map(
    [...section.matchAll(/^\| `(\w+)` \| (.*) \| (.*) \|$/gm)].map(([, name, rest, need]) => [name!, { rest: rest!, need: need! }]),
  );
  const fields = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((type) =>
    Object.entries(type!.getFields()),
  );
  const wrong: string[] = [];
  for (const [name, field] of fields) {
    const row = rows.get(name);
    const expected = needs((field.extensions as { pothosOptions?: { authScopes?: AuthScopes } }).pothosOptions?.authScopes);
    if (!row) wrong.push(`${name}: no row`);
    else if (!row.need.startsWith(expected)) wrong.push(`${name}: the guide says ${row.need}, the schema ${expected}`);
  }
  for (const route of restRoutes) {
    const field = ((parse(route.document).definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode).name.value;
    const path = `\`${route.method} ${route.path.replace(/:([a-z_]+)/g, '{$1}')}\``;
    if (!rows.get(field)?.rest.includes(path)) wrong.push(`${field}: ${path} missing`);
  }
  expect(wrong).toEqual([]);
  expect(rows.size).toBe(fields.length);
});
