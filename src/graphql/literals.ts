// Values written into an operation's text are input too (docs/reference.md § Limits): the checks that
// JSON bodies and variables get at the edge (src/input.ts) apply to literals here, as a
// validation rule, before anything runs. A string literal may not hold U+0000 (written as the
// escape \u0000: PostgreSQL cannot store it, SQLite would keep it), and a number literal must be
// finite (graphql-js reads 1e400 as Infinity without complaint). Variables get the same checks
// from the body parser and GraphQL's own coercion; dates from either are checked by name where
// they are read (input.ts, epochMs).
import { GraphQLError, type ASTNode, type ASTVisitor, type ValidationContext } from 'graphql';
import type { Plugin } from '@envelop/core';

export function literalInputRule(context: ValidationContext): ASTVisitor {
  // The code and status a client reads for any refused input (Yoga keeps a code already set).
  const refuse = (message: string, node: ASTNode) =>
    context.reportError(new GraphQLError(message, { nodes: [node], extensions: { code: 'invalid_request', statusCode: 400 } }));
  return {
    StringValue(node) {
      if (node.value.includes('\u0000')) refuse('a string literal of the operation contains a NUL character (U+0000)', node);
    },
    FloatValue(node) {
      if (!Number.isFinite(Number(node.value))) refuse(`the number literal ${node.value} is out of range`, node);
    },
  };
}

/** The rule for every operation Yoga, our fast path and graphql-ws validate. */
export const literalInputs = (): Plugin => ({
  onValidate: ({ addValidationRule }) => addValidationRule(literalInputRule),
});
