// The conformance kit (`cli certify pos|dsp|event-provider`): everything the service will call on a
// provider, made the way the service makes it (the provider client, its headers, signatures and
// path overrides), against a vendor's server, rule by rule, checking what the provider's guide
// asks and nothing of our sandbox's own ways. Its checks are in ./pos.ts, ./dsp.ts and
// ./event-provider.ts (the OAuth ones shared, ./oauth.ts); this module runs them, listens on
// loopback for what comes back (the OAuth redirect, a provider's webhook, answered as the service
// answers it: ./webhooks.ts) and reports for people, as JSON, and as JUnit XML.
import http from 'node:http';
import { DEFAULT_PATHS, validateProvider, type ProviderInfo, type ProviderInput } from '../integrations/providers.js';
import { send, type Caller, type ProviderResponse } from '../integrations/provider-client.js';
import { providerUrl } from '../integrations/providers.js';
import { providerLocationsOf } from '../modules/locations/peers.js';

export type Check = { id: string; ok: boolean; detail: string };
/** A check the run did not make, and why (the flag that makes it). */
export type Skipped = { id: string; detail: string };
export type Report = {
  kind: 'pos' | 'dsp' | 'event-provider';
  base_url: string;
  passed: number;
  failed: number;
  checks: Check[];
  skipped: Skipped[];
};

/** One check: its id and what it found (or, `skip`, why it could not tell); a throw fails it
 * with the error's words. */
export type CheckRun = (
  record: (id: string, ok: boolean, detail: string) => void,
  skip: (id: string, detail: string) => void,
) => Promise<void>;

/** What a kind's checks are given: how to call, whom, where the kit listens, and what the person
 * running it said. */
export type KitOptions = {
  caller: Caller;
  provider: ProviderInfo;
  listener: Listener;
  /** Where the OAuth redirect goes when it is not the kit's listener, and the code that came there. */
  redirectUri?: string;
  code?: string;
  /** Seconds to wait for the provider's signed webhook at the listener; none: not checked. */
  waitWebhookSeconds?: number;
  /** The provider's location (a POS's) or store (a DSP's) to test with, of those it lists; none: the first. */
  location?: string;
  /** Lines for the person running the kit (the link to open, the webhook URL). */
  say: (line: string) => void;
};

/** What came back, in a line: status and the start of the body. */
export const answered = (response: ProviderResponse) => `${response.status} ${response.text.slice(0, 160).replace(/\s+/g, ' ')}`.trim();

export const ok2xx = (response: { status: number }) => response.status >= 200 && response.status < 300;

/** The places a provider lists (a POS's locations, a DSP's stores) and the one the kit tests with. */
export type Listed = { ids: string[]; target?: string };

/** The check `locations.shape`: GET /v1/locations with the merchant's token; what it lists is read
 * as the service reads it (the entries with a provider_id), and the kit tests with --location, or
 * the first. `what`: "location", "store". */
export function locationsCheck(options: KitOptions, bearer: () => string, listed: Listed, what: string): [string[], CheckRun] {
  const { caller, provider, say } = options;
  return [
    ['locations.shape'],
    async (record) => {
      const response = await send(caller, 'GET', providerUrl(provider, 'locations'), {
        headers: { authorization: `Bearer ${bearer()}` },
        retries: 0,
      });
      listed.ids = (providerLocationsOf(response.body as { locations?: unknown }) ?? []).map((l) => l.providerId);
      const entries = (response.body as { locations?: unknown })?.locations;
      if (listed.ids.length) {
        listed.target = options.location ?? listed.ids[0];
        say(
          `It listed ${listed.ids.length} ${what}(s): ${listed.ids.join(', ')}; the kit tests with ${listed.target}${options.location ? ' (--location)' : ' (the first; --location chooses another)'}.`,
        );
      }
      record(
        'locations.shape',
        Array.isArray(entries) && entries.length > 0 && listed.ids.length === entries.length,
        `GET ${providerUrl(provider, 'locations')} → ${answered(response)}. Rule: {locations: [...]}, at least one ${what}, each with its provider_id (a string; an entry without one is left out)`,
      );
    },
  ];
}

/** The place the kit tests with, once the provider listed its own. */
export function listedTarget(listed: Listed, what: string): string {
  if (!listed.target) throw new Error(`no ${what} to use: locations.shape failed`);
  if (!listed.ids.includes(listed.target))
    throw new Error(`--location ${listed.target} is not among the ${what}s it listed (${listed.ids.join(', ')})`);
  return listed.target;
}

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
    name: input.name ?? input.source,
    orderUpdates: false,
    markupLine: false,
    tokenFormat: 'json',
  };
}

/** What the kit answered a webhook. */
export type Answer = { status: number; body: unknown };

/** A request that reached the kit's loopback listener. */
export type Arrival = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** When it came, epoch ms. */
  at: number;
  /** A webhook's: what the kit answered it. */
  answer?: Answer;
};

export type Listener = {
  url: string;
  /** The next request to this path (the OAuth redirect), or null after `timeoutMs`. */
  next: (path: string, timeoutMs: number) => Promise<Arrival | null>;
  /** The first webhook (a POST, at any path under the URL) that `matches`, among those that
   * came and those to come, or null after `timeoutMs`. */
  webhook: (matches: (arrival: Arrival) => boolean, timeoutMs: number) => Promise<Arrival | null>;
  /** Every webhook that came so far. */
  webhooks: () => Arrival[];
  /** How webhooks are answered from now on (until then: 200 {"received": true}). */
  answerWith: (answer: (arrival: Arrival) => Answer) => void;
  close: () => Promise<void>;
};

/** The kit's listener could not be opened where it was asked to be. */
export class ListenerUnavailable extends Error {}

/** The kit's own loopback listener: the OAuth redirect URI and the URL a provider's webhooks go
 * to. A webhook counts at whatever path under the URL it arrives (a provider posts to its
 * service URL's /v1/webhooks/…), and is answered as the kit says (the event-provider kit answers
 * as the service would). On `port` when given (a provider told the URL before the kit runs),
 * else on any free one. */
export async function startListener(port = 0): Promise<Listener> {
  const redirects: Arrival[] = [];
  const webhooks: Arrival[] = [];
  const waiting = new Set<() => void>();
  let answer = (_arrival: Arrival): Answer => ({ status: 200, body: { received: true } });
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = new URL(request.url ?? '/', 'http://127.0.0.1');
      const arrival: Arrival = {
        method: request.method ?? 'GET',
        path: at.pathname,
        query: at.searchParams,
        headers: request.headers,
        body: Buffer.concat(chunks),
        at: Date.now(),
      };
      // A browser that lands here is told where it is; a provider's webhook gets its 2xx.
      if (arrival.method === 'GET') {
        redirects.push(arrival);
        response.writeHead(200, { 'content-type': 'text/plain' }).end('The conformance kit has the code; you can close this page.\n');
      } else {
        arrival.answer = answer(arrival);
        webhooks.push(arrival);
        response.writeHead(arrival.answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(arrival.answer.body));
      }
      for (const wake of waiting) wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new ListenerUnavailable(
          `the kit cannot listen on 127.0.0.1:${port} (${error.code === 'EADDRINUSE' ? 'the port is taken' : error.message}): give another --listen-port`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  /** The first arrival `find` gives, now or once one comes; null after `timeoutMs`. */
  const awaited = (find: () => Arrival | undefined, timeoutMs: number) =>
    new Promise<Arrival | null>((resolve) => {
      const look = () => {
        const found = find();
        if (!found) return false;
        waiting.delete(look);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiting.delete(look);
        resolve(null);
      }, timeoutMs);
      timer.unref();
      if (!look()) waiting.add(look);
    });
  return {
    url,
    next: (path, timeoutMs) =>
      awaited(() => {
        const index = redirects.findIndex((a) => a.path === path);
        return index >= 0 ? redirects.splice(index, 1)[0] : undefined;
      }, timeoutMs),
    webhook: (matches, timeoutMs) => awaited(() => webhooks.find(matches), timeoutMs),
    webhooks: () => [...webhooks],
    answerWith: (answering) => {
      answer = answering;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Runs checks in order, each recording one or more results; a check that throws fails with what
 * it threw, and the rest still run. `skipped` are the checks not run (and why), besides those a
 * run skips. The report lists the checks in the order of `checks`' ids, whatever order they were
 * recorded in (a verdict that waits for a later wait is recorded after it).
 */
export async function runChecks(
  kind: Report['kind'],
  baseUrl: string,
  checks: [string[], CheckRun][],
  skipped: Skipped[] = [],
): Promise<Report> {
  const results: Check[] = [];
  const notRun = [...skipped];
  for (const [ids, run] of checks) {
    const recorded = new Set<string>();
    try {
      await run(
        (id, ok, detail) => {
          recorded.add(id);
          results.push({ id, ok, detail });
        },
        (id, detail) => {
          recorded.add(id);
          notRun.push({ id, detail });
        },
      );
    } catch (error) {
      for (const id of ids.filter((i) => !recorded.has(i)))
        results.push({ id, ok: false, detail: `the check could not finish: ${(error as Error).message}` });
    }
  }
  const order = checks.flatMap(([ids]) => ids);
  // The checks' order; those never run (a stable sort keeps theirs) last.
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
  const byOrder = (a: { id: string }, b: { id: string }) => rank(a.id) - rank(b.id);
  results.sort(byOrder);
  notRun.sort(byOrder);
  const passed = results.filter((c) => c.ok).length;
  return { kind, base_url: baseUrl, passed, failed: results.length - passed, checks: results, skipped: notRun };
}

/** A line per check, for people. */
export const reportLines = (report: Report): string =>
  [
    ...report.checks.map((c) => `${c.ok ? 'PASS' : 'FAIL'}  ${c.id}  ${c.detail}`),
    ...report.skipped.map((c) => `SKIP  ${c.id}  ${c.detail}`),
    `${report.passed} passed, ${report.failed} failed${report.skipped.length ? `, ${report.skipped.length} skipped` : ''} (${report.kind} at ${report.base_url})`,
  ].join('\n');

const xml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JUnit XML: one testcase per check, those not run marked skipped, for the vendor's CI. */
export const junitReport = (report: Report): string => {
  const tests = report.checks.length + report.skipped.length;
  const counts = `tests="${tests}" failures="${report.failed}" skipped="${report.skipped.length}"`;
  const testcase = (id: string, inner: string) => `<testcase classname="certify.${report.kind}" name="${xml(id)}">${inner}</testcase>`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${counts}>\n<testsuite name="certify ${report.kind}" ${counts}>\n` +
    [
      ...report.checks.map((c) =>
        testcase(c.id, c.ok ? `<system-out>${xml(c.detail)}</system-out>` : `<failure message="${xml(c.detail)}"/>`),
      ),
      ...report.skipped.map((c) => testcase(c.id, `<skipped message="${xml(c.detail)}"/>`)),
    ].join('\n') +
    '\n</testsuite>\n</testsuites>\n'
  );
};
