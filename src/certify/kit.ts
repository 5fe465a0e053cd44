// The conformance kit (`cli certify pos|event-provider`): everything the service will call on a
// provider, made the way the service makes it (the provider client, its headers, signatures and
// path overrides), against a vendor's server, rule by rule. Its checks are in ./pos.ts and
// ./event-provider.ts; this module runs them, listens on loopback for what comes back (the OAuth
// redirect, a provider's webhook) and reports for people, as JSON, and as JUnit XML.
import http from 'node:http';
import { DEFAULT_PATHS, validateProvider, type ProviderInfo, type ProviderInput } from '../integrations/providers.js';

export type Check = { id: string; ok: boolean; detail: string };
export type Report = { kind: 'pos' | 'event-provider'; base_url: string; passed: number; failed: number; checks: Check[] };

/** One check: its id and what it found; a throw fails it with the error's words. */
export type CheckRun = (record: (id: string, ok: boolean, detail: string) => void) => Promise<void>;

/** A provider given by flags, as its registration would hold it. */
export function providerFromFlags(input: ProviderInput): ProviderInfo {
  validateProvider(input);
  return {
    source: input.source,
    kind: input.kind,
    baseUrl: input.base_url,
    paths: { ...DEFAULT_PATHS, ...input.paths },
    clientId: input.client_id ?? null,
    clientSecret: input.client_secret ?? null,
    webhookSecret: input.webhook_secret ?? null,
    connectionNotices: true,
    notificationScope: [],
    orderUpdates: false,
    tokenFormat: 'json',
  };
}

/** A request that reached the kit's loopback listener. */
export type Arrival = { method: string; path: string; query: URLSearchParams; headers: http.IncomingHttpHeaders; body: Buffer };

/** The kit's own loopback listener: the OAuth redirect URI and the webhook URL it prints. */
export async function startListener(): Promise<{
  url: string;
  next: (path: string, timeoutMs: number) => Promise<Arrival | null>;
  close: () => Promise<void>;
}> {
  const arrived: Arrival[] = [];
  const waiting: { path: string; resolve: (a: Arrival) => void }[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = new URL(request.url ?? '/', 'http://127.0.0.1');
      const arrival = {
        method: request.method ?? 'GET',
        path: at.pathname,
        query: at.searchParams,
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      const waiter = waiting.findIndex((w) => w.path === arrival.path);
      if (waiter >= 0) waiting.splice(waiter, 1)[0]!.resolve(arrival);
      else arrived.push(arrival);
      // A browser that lands here is told where it is; a provider's webhook gets its 2xx.
      if (arrival.method === 'GET')
        response.writeHead(200, { 'content-type': 'text/plain' }).end('The conformance kit has the code; you can close this page.\n');
      else response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    next: (path, timeoutMs) => {
      const index = arrived.findIndex((a) => a.path === path);
      if (index >= 0) return Promise.resolve(arrived.splice(index, 1)[0]!);
      return new Promise((resolve) => {
        const waiter = { path, resolve };
        waiting.push(waiter);
        setTimeout(() => {
          const still = waiting.indexOf(waiter);
          if (still >= 0) {
            waiting.splice(still, 1);
            resolve(null);
          }
        }, timeoutMs).unref();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs checks in order, each recording one or more results; a check that throws fails with
 * what it threw, and the rest still run. */
export async function runChecks(kind: Report['kind'], baseUrl: string, checks: [string[], CheckRun][]): Promise<Report> {
  const results: Check[] = [];
  for (const [ids, run] of checks) {
    const recorded = new Set<string>();
    try {
      await run((id, ok, detail) => {
        recorded.add(id);
        results.push({ id, ok, detail });
      });
    } catch (error) {
      for (const id of ids.filter((i) => !recorded.has(i)))
        results.push({ id, ok: false, detail: `the check could not finish: ${(error as Error).message}` });
    }
  }
  const passed = results.filter((c) => c.ok).length;
  return { kind, base_url: baseUrl, passed, failed: results.length - passed, checks: results };
}

/** A line per check, for people. */
export const reportLines = (report: Report): string =>
  [
    ...report.checks.map((c) => `${c.ok ? 'PASS' : 'FAIL'}  ${c.id}  ${c.detail}`),
    `${report.passed} passed, ${report.failed} failed (${report.kind} at ${report.base_url})`,
  ].join('\n');

const xml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JUnit XML: one testcase per check, for the vendor's CI. */
export const junitReport = (report: Report): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="${report.checks.length}" failures="${report.failed}">\n` +
  `<testsuite name="certify ${report.kind}" tests="${report.checks.length}" failures="${report.failed}">\n` +
  report.checks
    .map(
      (c) =>
        `<testcase classname="certify.${report.kind}" name="${xml(c.id)}">` +
        (c.ok ? `<system-out>${xml(c.detail)}</system-out>` : `<failure message="${xml(c.detail)}"/>`) +
        '</testcase>',
    )
    .join('\n') +
  '\n</testsuite>\n</testsuites>\n';
