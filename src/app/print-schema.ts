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
  fs.writeFileSync(schemaFile, printedSchema());
  process.stdout.write(`wrote ${path.relative(process.cwd(), schemaFile)}\n`);
}
