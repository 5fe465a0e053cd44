// Every answer the suite gets from the service, held against the service's own OpenAPI document
// (GET /v1/openapi.json): a status the document does not list for that operation, or a body its
// schema refuses, fails the test that got it. test/support/service.ts's request() calls it, so
// every REST call of the suite is checked, not a sample.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { send, type Target } from './http.js';

type Operation = { responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }> };
type Checker = {
  document: { paths: Record<string, Record<string, Operation>> };
  ajv: InstanceType<typeof Ajv2020>;
  matchers: { pattern: RegExp; path: string }[];
};

const DOCUMENT_ID = 'openapi.json';
const checkers = new Map<Target, Promise<Checker | null>>();

async function checkerFor(target: Target): Promise<Checker | null> {
  const response = await send(target, 'GET', '/v1/openapi.json').catch(() => null);
  // Not the service (a sandbox peer), or one stopping: nothing to hold answers against.
  if (response?.status !== 200) return null;
  const document = JSON.parse(response.text) as Checker['document'];
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema(document as object, DOCUMENT_ID);
  const matchers = Object.keys(document.paths).map((path) => ({
    path,
    pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  // A literal path first: /v1/onboarding/locations/ingest is not /v1/onboarding/locations/{x}.
  matchers.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  return { document, ajv, matchers };
}

const pointer = (...steps: string[]) => steps.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Throws when the answer is not what the document says this operation answers. */
export async function assertDocumentedAnswer(
  target: Target,
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  body: unknown,
): Promise<void> {
  if (!checkers.has(target)) checkers.set(target, checkerFor(target));
  const checker = await checkers.get(target)!;
  if (!checker) return;
  const path = new URL(url, 'http://in.process').pathname;
  const match = checker.matchers.find((m) => m.pattern.test(path));
  const operation = match && checker.document.paths[match.path]![method.toLowerCase()];
  // Not a documented operation (GraphQL, the dashboard, /docs): GraphQL's own tests cover it.
  if (!match || !operation) return;
  const what = `${method} ${path} answered ${status}`;
  const key =
    String(status) in operation.responses
      ? String(status)
      : status >= 400 && status < 500 && 'default' in operation.responses
        ? 'default'
        : null;
  if (!key)
    throw new Error(
      `${what}, a status its OpenAPI operation does not list (${Object.keys(operation.responses).join(', ')}): ${JSON.stringify(body)}`,
    );
  let response = operation.responses[key]!;
  let at = pointer('paths', match.path, method.toLowerCase(), 'responses', key);
  if (response.$ref) {
    at = response.$ref.slice(2);
    response = at.split('/').reduce((node: any, step) => node[step.replace(/~1/g, '/').replace(/~0/g, '~')], checker.document);
  }
  if (!response.content?.['application/json'] || !contentType?.includes('application/json')) return;
  const validate = checker.ajv.getSchema(`${DOCUMENT_ID}#/${at}/content/application~1json/schema`)!;
  if (!validate(body))
    throw new Error(`${what} with a body its OpenAPI schema refuses: ${checker.ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
}
