// Prints the schema built from the code to schema/schema.graphql (`npm run schema:print`).
// The committed file is what partners read and what codegen types the tests against; a test
// fails when it drifts from the code.
import fs from 'node:fs';
import path from 'node:path';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './schema.js';

export const schemaFile = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../schema/schema.graphql');
export const printedSchema = (): string => `${printSchema(lexicographicSortSchema(schema))}\n`;

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  // Written only when it changed, as codegen writes its files: a drift check run beside whatever
  // reads this file (a test, the dashboard's build) never rewrites it under them.
  const printed = printedSchema();
  const relative = path.relative(process.cwd(), schemaFile);
  if (fs.existsSync(schemaFile) && fs.readFileSync(schemaFile, 'utf8') === printed) {
    process.stdout.write(`${relative} is up to date\n`);
  } else {
    fs.writeFileSync(schemaFile, printed);
    process.stdout.write(`wrote ${relative}\n`);
  }
}
