// GraphQL Code Generator: typed documents for the tests and the dashboard, from the committed schema.
// `npm run codegen` after `npm run schema:print`; CI fails when the output drifts.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  generates: {
    'test/generated/': {
      documents: ['test/**/*.ts', '!test/generated/**'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
    },
    // The browser sends the documents' text: strings, not parsed documents (no graphql-js in the bundle).
    'src/dashboard/generated/': {
      documents: ['src/dashboard/**/*.ts', '!src/dashboard/generated/**'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: { documentMode: 'string' },
    },
  },
  ignoreNoDocuments: true,
  config: { useTypeImports: true, enumsAsTypes: true },
  // ESM: imports between the generated files carry their .js extension.
  emitLegacyCommonJSImports: false,
};

export default config;
