// GraphQL Code Generator: typed documents for the tests, from the committed schema.
// `npm run codegen` after `npm run schema:print`; CI fails when the output drifts.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['test/**/*.ts', '!test/generated/**'],
  generates: {
    'test/generated/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
    },
  },
  ignoreNoDocuments: true,
  config: { useTypeImports: true, enumsAsTypes: true },
  // ESM: imports between the generated files carry their .js extension.
  emitLegacyCommonJSImports: false,
};

export default config;
