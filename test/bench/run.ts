// `npm run bench`: our service runs in this process, pinned to core 0, and the ceilings and the
// peer in one of their own (ceilings.ts), pinned the same way; the load comes from autocannon in
// another process pinned to core 1 (when taskset exists). Each scenario runs three times and
// reports medians, and every figure is also a ratio to a ceiling or the peer measured in turns
// with it: these machines drift 5-20% between runs, so only ratios compare across runs.
import { localDate } from '../../src/modules/catalog/local-time.js';
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import inspector from 'node:inspector/promises';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { READ_QUERY } from './shape.js';
import { median, percentile, tenths } from './stats.js';
import { summarize, summaryLine } from './profile.js';
import { pinToServerCore, spawnOnLoadCore, taskset, unpin } from './cores.js';
import { benchPostgres } from './postgres.js';
import { benchRedis } from './redis.js';
import { largeCatalogs } from './catalog.js';
import { loadConfig } from '../../src/config.js';
import { startService, type RunningService } from '../../src/app/service.js';
import { createLogger } from '../../src/app/log.js';
import { createPartner } from '../../src/modules/auth/service.js';
import { registerSandboxPos, sandboxSecrets } from '../../src/sandbox/register.js';
import { saveProvider } from '../../src/integrations/providers.js';
import { clientToken, freshDatabase } from '../support/service.js';
import { freePort, merchantTakingOrders as onboardedMerchant, spawnService } from '../support/orders.js';
import { buildService } from '../support/build.js';
import { polled } from '../support/wait.js';
import { openDatabase, poolState } from '../../src/db/client.js';
import { insertRowsStep, statementsOf } from '../../src/db/statements.js';
import { prune } from '../../src/db/pruning.js';
import { dspClientIdOf, sandboxOrder } from '../../src/sandbox/pos/server.js';

/** The bench is one partner and one sender at rates no real one reaches: the rate limits stay
 * on (their counting is part of every request's cost) but far above what it sends. */
const UNLIMITED = { RATE_LIMIT_API_PER_MINUTE: '1000000000', RATE_LIMIT_WEBHOOKS_PER_MINUTE: '1000000000' };

const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** An order scenario's warm-up, before its first measured run. Three seconds at 100/s left the
 * service still compiling its hot code when the runs began: the first run at 200/s had a p99 of
 * 70-130 ms, the next ones 10-40 ms, run after run; after ten seconds at 200/s the first run is as
 * the others (docs/performance.md). */
const WARM_UP = { rate: 200, seconds: 10 };
pinToServerCore();
// Each process the bench starts (PostgreSQL, Redis, instances) stops with it: one exit listener each.
process.setMaxListeners(50);

type Result = { rps: number; p50: number; p99: number; non2xx: number; errors: number; total: number };
/** A scenario's medians, and each run's p99: one slow run in three does not move a median. */
type Summary = Result & { p99s: number[] };
/** The service's own work per order, in µs: its main thread's busy time and all its threads' CPU. */
type PerOrder = { mainThreadUs: number; cpuUs: number; othersUs: number; statements?: number };
const perOrderLine = (p: PerOrder) =>
  `per order: main thread ${p.mainThreadUs} µs, CPU ${p.cpuUs} µs${p.othersUs ? `, PostgreSQL (and any second instance) ${p.othersUs} µs` : ''}${p.statements === undefined ? '' : `, ${p.statements} statements`}`;

function load(job: Record<string, unknown>): Promise<Result> {
  const args = [
    '--import',
    'tsx',
    path.join(import.meta.dirname, 'load.ts'),
    JSON.stringify({ connections: 20, duration: SECONDS, ...job }),
  ];
  const child = spawnOnLoadCore(args);
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => process.stderr.write(c));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`load exited ${code}`)),
    ),
  );
}

/** What one scenario measures; `profiled` for our service's own (BENCH_PROFILE, below). */
type Scenario = { name: string; job: () => Record<string, unknown>; profiled?: boolean };

/** A scenario's runs, one after the other, and their medians. */
async function repeated({ name, job, profiled }: Scenario): Promise<Summary> {
  const runs: Result[] = [];
  const profiler = PROFILE && profiled ? await startProfile() : undefined;
  for (let i = 0; i < REPEAT; i++) runs.push(await load(job()));
  await profiler?.(name);
  return summary(name, runs);
}

/** Scenarios measured in turns (a, b, c, a, b, c, ...) rather than one after the other: the
 * machine's drift over the turns falls on each of them alike, so the ratios between them hold
 * still (measured minutes apart, the peer alone moved by a third between runs here). With
 * BENCH_PROFILE, each run of a `profiled` scenario writes its own profile. */
async function inTurns(scenarios: Scenario[]): Promise<Summary[]> {
  const runs = scenarios.map((): Result[] => []);
  for (let i = 0; i < REPEAT; i++) {
    for (const [k, scenario] of scenarios.entries()) {
      const profiler = PROFILE && scenario.profiled ? await startProfile() : undefined;
      runs[k]!.push(await load(scenario.job()));
      await profiler?.(`${scenario.name} ${i + 1}`);
    }
  }
  return scenarios.map((scenario, k) => summary(scenario.name, runs[k]!));
}

/** The medians of a scenario's runs, printed as they come. */
function summary(name: string, runs: Result[]): Summary {
  const p99s = runs.map((r) => r.p99);
  const result = {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(p99s),
    p99s,
    non2xx: Math.max(...runs.map((r) => r.non2xx)),
    errors: Math.max(...runs.map((r) => r.errors)),
    total: median(runs.map((r) => r.total)),
  };
  process.stdout.write(
    `${name.padEnd(44)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms (runs: ${p99s.join(', ')})${result.non2xx ? `  non-2xx ${result.non2xx}` : ''}\n`,
  );
  return result;
}

// BENCH_PROFILE=<dir>: a CPU profile of the server side of each scenario, written to <dir>, and
// where its time went by area (profile.ts), printed and added to <dir>/summary.md.
const PROFILE = process.env.BENCH_PROFILE;
async function startProfile() {
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (name: string) => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    fs.mkdirSync(PROFILE!, { recursive: true });
    fs.writeFileSync(path.join(PROFILE!, `${name.replace(/[^\w]+/g, '-')}.cpuprofile`), JSON.stringify(profile));
    const line = summaryLine(summarize(profile));
    process.stdout.write(`  where the CPU of ${name} went: ${line}\n`);
    fs.appendFileSync(path.join(PROFILE!, 'summary.md'), `- ${name} (${new Date().toISOString()}): ${line}\n`);
  };
}

const graphqlJob = (url: string, headers: Record<string, string> = {}) => ({
  url: `${url}/graphql`,
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ query: READ_QUERY, variables: { orgId: 'org' } }),
});

/** The ceilings and the peer, served by ceilings.ts in a process of its own, for as long as `measure`
 * runs: each of our scenarios is measured in turns with what it is compared with. Not left idle
 * beside our later runs: V8 runs a full collection in a process a few seconds after it stops
 * allocating, and this one's main thread shares the servers' core. (Suspected, not shown, of a
 * 23 ms half-rate p99: stopping it did not end those; see docs/performance.md.) */
type References = { plain: string; jit: string; peer: string; fastify: string };
async function withReferences<T>(measure: (urls: References) => Promise<T>): Promise<T> {
  const { match, stop } = await serverProcess('test/bench/ceilings.ts', /ceilings (\{.*\})/);
  try {
    return await measure(JSON.parse(match) as References);
  } finally {
    stop();
  }
}
const jitScenario = (urls: References): Scenario => ({
  name: 'ceiling: node:http + graphql-jit (in memory)',
  job: () => graphqlJob(urls.jit),
});
const peerScenario = (urls: References): Scenario => ({
  name: 'peer: Yoga + Pothos defaults (in memory)',
  job: () => graphqlJob(urls.peer),
});
const fastifyScenario = (urls: References): Scenario => ({ name: 'ceiling: Fastify fixed JSON', job: () => ({ url: urls.fastify }) });

/** The ceilings and the peer one after the other, for the table's last row. */
const ceilings = () =>
  withReferences(async (urls) => {
    return {
      http: await repeated({ name: 'ceiling: node:http fixed JSON', job: () => ({ url: urls.plain }) }),
      jit: await repeated(jitScenario(urls)),
      peer: await repeated(peerScenario(urls)),
      fastify: await repeated(fastifyScenario(urls)),
    };
  });

/** A SQLite database in a temporary folder of its own, which `drop` removes (an order run leaves
 * about 140 MB there). */
function sqliteDatabase(prefix: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return {
    url: `file:${path.join(dataDir, 'service.db')}`,
    dataDir,
    drop: async () => fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 }),
  };
}

/** What the bench turns off to measure its cost, which no deployment can: the rate limits and
 * GraphQL bounds, the ordering of one order's events to its DSP. */
type Off = { limits?: false; ordering?: false };

/** Our service's configuration in the bench: quiet, no sandbox, no Redis, limits far away. */
function benchConfig(url: string, dataDir: string, env: Record<string, string> = {}, off: Off = {}) {
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    SANDBOX: 'off',
    REDIS_URL: '',
    ...UNLIMITED,
    ...env,
  });
  return {
    ...config,
    limits: off.limits ?? config.limits,
    outbox: { ...config.outbox, ordered: off.ordering ?? config.outbox.ordered },
  };
}

/** Our service on a fresh database with one organization of 20 locations × 3 DSP connections. */
async function ours(kind: 'sqlite' | 'postgresql', off: Off = {}) {
  const database = kind === 'postgresql' ? await freshDatabase() : sqliteDatabase('bench-');
  const { url, dataDir } = database;
  let queries = 0;
  const config = benchConfig(url, dataDir, {}, off);
  const service = await startService(config, createLogger(config), { onQuery: () => void queries++ });
  const { db } = service.services;
  const partner = await createPartner(db, { name: 'bench' });
  const token = await clientToken(service.url, partner.clientId, partner.clientSecret);
  const org = await db.organization.create({
    data: { id: 'org_bench', partnerId: partner.partnerId, name: 'Bench', providerId: 'bench' },
  });
  for (const type of ['pos', 'dsp'])
    await db.onboarding.create({
      data: {
        id: `onb_${type}`,
        partnerId: partner.partnerId,
        orgId: org.id,
        type,
        source: `sandbox-${type}`,
        returnUrl: 'https://x.example',
        status: 'active',
      },
    });
  for (let i = 0; i < 20; i++) {
    await db.location.create({
      data: {
        id: `loc_${i}`,
        partnerId: partner.partnerId,
        orgId: org.id,
        onboardingId: 'onb_pos',
        source: 'sandbox-pos',
        providerId: `loc_${i}_pos`,
        name: `Sandbox Grill ${i}`,
        address: JSON.stringify({ locality: 'Austin', country: 'US' }),
      },
    });
    for (let j = 0; j < 3; j++) {
      await db.store.create({
        data: {
          id: `dsp_${i}_${j}`,
          partnerId: partner.partnerId,
          orgId: org.id,
          locationId: `loc_${i}`,
          onboardingId: 'onb_dsp',
          source: 'sandbox-dsp',
          dspStoreId: `store_${i}_${j}`,
          name: `Store ${i}-${j}`,
        },
      });
    }
  }
  return {
    service,
    token,
    orgId: org.id,
    partnerId: partner.partnerId,
    queries: () => queries,
    resetQueries: () => {
      queries = 0;
    },
    drop: database.drop,
  };
}

async function readPath(kind: 'sqlite' | 'postgresql') {
  const o = await ours(kind);
  const job = () => ({
    ...graphqlJob(o.service.url, { authorization: `Bearer ${o.token}` }),
    body: JSON.stringify({ query: READ_QUERY, variables: { orgId: o.orgId } }),
  });
  // Round-trips per request: the statements between sending each of 21 requests in a row and its
  // answer. The median is the request's own; a request can also see a background worker's poll,
  // or the session check that runs once the five-second cache of a session expires.
  const one = async () => {
    const check = (await (
      await fetch(`${o.service.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${o.token}` },
        body: job().body as string,
      })
    ).json()) as { data?: { organizationLocations: { locations: unknown[] } } };
    if (check.data?.organizationLocations.locations.length !== 20)
      throw new Error(`read path answered ${JSON.stringify(check).slice(0, 200)}`);
  };
  await one();
  const perRequest: number[] = [];
  for (let i = 0; i < 21; i++) {
    o.resetQueries();
    await one();
    perRequest.push(o.queries());
  }
  const roundTrips = { median: median(perRequest), min: Math.min(...perRequest), max: Math.max(...perRequest) };
  process.stdout.write(
    `ours: org locations, ${kind}: database round-trips per request ${roundTrips.median} (each ${roundTrips.min}-${roundTrips.max})\n`,
  );
  // The same service with its rate limits and GraphQL bounds off (the bench's own override), in turns with the
  // others: what counting each request and bounding each operation costs.
  const off = await ours(kind, { limits: false });
  const offJob = () => ({
    ...graphqlJob(off.service.url, { authorization: `Bearer ${off.token}` }),
    body: JSON.stringify({ query: READ_QUERY, variables: { orgId: off.orgId } }),
  });
  const [jit, peer, max, unlimited] = await withReferences((urls) =>
    inTurns([
      jitScenario(urls),
      peerScenario(urls),
      { name: `ours: org locations, ${kind}`, job, profiled: true },
      { name: `ours: org locations, ${kind}, limits off`, job: offJob },
    ]),
  );
  await off.service.close();
  await off.drop();
  const halfRate = Math.max(1, Math.round(max!.rps / 2));
  const { result: half, inService } = await insideService(o.service.app.server, () =>
    repeated({ name: `ours: org locations, ${kind}, at half rate`, job: () => ({ ...job(), rate: halfRate, warmup: 1 }), profiled: true }),
  );
  await o.service.close();
  await o.drop();
  // The same pacer at the same rate against a server that does nothing: the tail this machine and
  // the load generator give by themselves, which no server can be below.
  const floor = await withReferences((urls) =>
    repeated({ name: 'ceiling: node:http fixed JSON, at that rate', job: () => ({ url: urls.plain, rate: halfRate, warmup: 1 }) }),
  );
  return { max: max!, half, inService, floor, roundTrips, jit: jit!, peer: peer!, unlimited: unlimited! };
}

/** What the service (it runs in this process) saw while `measure` ran: how long each request took
 * from its headers to the end of its answer, and its event loop's delay (a 1 ms timer samples it,
 * so 1 ms is none). A client p99 far above these was not spent in the service. */
async function insideService<T>(server: http.Server, measure: () => Promise<T>) {
  const answered: number[] = [];
  const timeAnswer = (_req: http.IncomingMessage, res: http.ServerResponse) => {
    const started = performance.now();
    res.once('finish', () => answered.push(performance.now() - started));
  };
  server.on('request', timeAnswer);
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  try {
    const result = await measure();
    answered.sort((a, b) => a - b);
    const inService = { p50: tenths(percentile(answered, 50)), p99: tenths(percentile(answered, 99)), loopMax: tenths(loop.max / 1e6) };
    process.stdout.write(
      `  inside the service through those runs: answered p50 ${inService.p50} ms, p99 ${inService.p99} ms; event-loop delay p99 ${tenths(loop.percentile(99) / 1e6)} ms, max ${inService.loopMax} ms\n`,
    );
    return { result, inService };
  } finally {
    loop.disable();
    server.off('request', timeAnswer);
  }
}

async function webhookPath() {
  const o = await ours('sqlite');
  const secret = 'bench-secret';
  await saveProvider(o.service.services, {
    source: 'bench-events',
    kind: 'event_provider',
    base_url: 'http://127.0.0.1:9',
    webhook_secret: secret,
  });
  // Orders confirmed to that provider at its location 'loc', as its reports name it: a report
  // about any other order is a 404 (the delivery leg's rule), and the scenario would
  // measure refusals. Its warm-up must be answered 2xx, or the bench stops.
  const { db } = o.service.services;
  await db.location.create({
    data: {
      id: 'loc_bench',
      partnerId: o.partnerId,
      orgId: o.orgId,
      onboardingId: 'onb_pos',
      source: 'sandbox-pos',
      providerId: 'loc',
      name: 'Bench',
      address: '{}',
    },
  });
  // Reports about 2,000 orders in turn: a provider reports a few times an order, and one order's
  // thousands of reports would measure its growing history rather than the path.
  const orderIds = Array.from({ length: 2000 }, (_, n) => `ord_bench_${n}`);
  await db.order.createMany({
    data: orderIds.map((id, n) => ({
      id,
      partnerId: o.partnerId,
      orgId: o.orgId,
      locationId: 'loc_bench',
      eventProvider: 'bench-events',
      dspSource: 'sandbox-dsp',
      dspStoreId: 's',
      dspOrderId: `d_${n}`,
      body: '{}',
    })),
  });
  const job = () => ({
    url: `${o.service.url}/v1/webhooks/event-providers/bench-events`,
    signed: { secret, kind: 'driver' as const, orderIds },
  });
  const warm = await load({ ...job(), rate: 50, duration: 1, connections: 1 });
  if (warm.non2xx || !warm.total)
    throw new Error(`webhook path: its setup did not finish: ${warm.non2xx} of ${warm.total} warm-up reports refused`);
  const [fastify, result] = await withReferences((urls) =>
    inTurns([fastifyScenario(urls), { name: 'ours: signed webhook verified, stored, answered', job, profiled: true }]),
  );
  await o.service.close();
  await o.drop();
  return { ...result!, fastify: fastify! };
}

/** `node --import tsx <script>` (a path from the repository's root) in a process of its own;
 * resolves with the first group of `ready` once its output shows it. `onLoadCore`: pinned to
 * the load generator's core, for a peer that is not what is measured. */
async function serverProcess(
  script: string,
  ready: RegExp,
  { env = process.env, onLoadCore = false } = {},
): Promise<{ match: string; stop: () => void }> {
  const args = ['--import', 'tsx', path.join(import.meta.dirname, '../..', script)];
  const child = onLoadCore ? spawnOnLoadCore(args, { env }) : spawn(process.execPath, args, { env });
  child.stderr.on('data', (c) => process.stderr.write(c));
  // Not left serving when the bench stops on an error (Ctrl-C reaches it as part of our group).
  process.on('exit', () => child.kill());
  const match = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const found = ready.exec(out);
      if (found) resolve(found[1]!);
    });
    child.on('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
  return { match, stop: () => void child.kill('SIGTERM') };
}

/** The sandbox POS in its own process, on the load generator's core: it is a peer, not part of
 * what is measured. Resolves when it listens. */
async function separatePos(
  dataDir: string,
  serviceUrl?: string,
): Promise<{ url: string; received: () => Promise<Received[]>; close: () => void }> {
  const { match: url, stop } = await serverProcess('src/sandbox/pos/main.ts', /sandbox POS at (\S+)/, {
    env: { ...process.env, DATA_DIR: dataDir, SANDBOX_POS_PORT: '0', ...(serviceUrl ? { SANDBOX_SERVICE_URL: serviceUrl } : {}) },
    onLoadCore: true,
  });
  const received = async () => ((await (await fetch(`${url}/v1/_sandbox/received`)).json()) as { received: Received[] }).received;
  return { url, received, close: stop };
}
type Received = { path: string; at: number; headers: Record<string, unknown>; body: unknown };

/** Where the order path is measured: SQLite at a synchronous setting, or PostgreSQL with one
 * instance or two on the same database (and Redis, when there is one). */
type OrderTarget = {
  label: string;
  kind: 'sqlite' | 'postgresql';
  env?: Record<string, string>;
  instances?: 1 | 2;
  /** A partner endpoint subscribed to every event (SANDBOX=on lets it be http on this machine). */
  endpoint?: boolean;
  /** Traces exported over OTLP/HTTP to a receiver in a process of its own (./endpoint.ts). */
  traced?: boolean;
  /** What is turned off to measure its cost. */
  off?: Off;
};
const SQLITE_FULL: OrderTarget = { label: 'SQLite', kind: 'sqlite', env: { SQLITE_SYNCHRONOUS: 'full' } };
const SQLITE_NORMAL: OrderTarget = { label: 'SQLite, synchronous normal', kind: 'sqlite', env: { SQLITE_SYNCHRONOUS: 'normal' } };
const SQLITE_UNORDERED: OrderTarget = {
  label: 'SQLite, DSP events without the ordering key',
  kind: 'sqlite',
  env: { SQLITE_SYNCHRONOUS: 'full' },
  off: { ordering: false },
};
const SQLITE_ENDPOINT: OrderTarget = {
  label: 'SQLite, a partner endpoint subscribed to every event',
  kind: 'sqlite',
  env: { SQLITE_SYNCHRONOUS: 'full', SANDBOX: 'on' },
  endpoint: true,
};
const SQLITE_TRACED: OrderTarget = {
  label: 'SQLite, traces exported to a local OTLP receiver',
  kind: 'sqlite',
  env: { SQLITE_SYNCHRONOUS: 'full' },
  traced: true,
};
const POSTGRES_ONE: OrderTarget = { label: 'PostgreSQL', kind: 'postgresql' };
const POSTGRES_TWO: OrderTarget = { label: 'PostgreSQL, two instances', kind: 'postgresql', instances: 2 };

const orderDatabase = (kind: OrderTarget['kind']) => (kind === 'postgresql' ? freshDatabase() : sqliteDatabase('bench-orders-'));

/** A merchant whose DSP store is bound to a location of the sandbox POS at `pos`, made through the
 * API of `service`: the store to send orders to. */
async function merchantTakingOrders(service: RunningService, pos: { url: string }, dataDir: string) {
  const { storeId, posLocationId, token, orgId } = await merchantWithStore(service, pos, dataDir);
  // The store receives its menus: every order is then checked against them at intake.
  await fetch(`${pos.url}/v1/_sandbox/catalog-updated`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ location_id: posLocationId }),
  });
  // Without them every order would be refused: the benchmark stops rather than measure that.
  const published = await polled(() => service.services.db.menuPublish.findFirst({ where: { status: 'published' } }), 10_000);
  if (!published)
    throw new Error("setup did not finish: the store's menus were not published within 10 s (the POS could not reach the service?)");
  return { storeId, token, orgId };
}

async function merchantWithStore(service: RunningService, pos: { url: string }, dataDir: string) {
  await registerSandboxPos(service.services, pos as never, sandboxSecrets(dataDir));
  const partner = await createPartner(service.services.db, { name: 'bench' });
  const token = await clientToken(service.url, partner.clientId, partner.clientSecret);
  const merchant = await onboardedMerchant({ url: service.url, partner: async () => ({ ...partner, token }) });
  return { storeId: merchant.storeId, posLocationId: `loc_2_${merchant.tid}`, token, orgId: merchant.orgId };
}

/** A partner's endpoint (./endpoint.ts) subscribed to every event, made through the API. */
async function partnerEndpoint(serviceUrl: string, token: string) {
  const { match: url, stop } = await serverProcess('test/bench/endpoint.ts', /endpoint at (\S+)/, { onLoadCore: true });
  const made = await fetch(`${serviceUrl}/v1/webhook-endpoints`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ url }),
  });
  if (made.status !== 201) throw new Error(`webhook endpoint: ${made.status} ${await made.text()}`);
  const created = async () => ((await (await fetch(`${url}/count`)).json()) as { created: number }).created;
  return { created, close: stop };
}

/** Another instance of the service, `npm start`'s way, in a process of its own on this database. */
async function anotherInstance(database: { url: string; dataDir: string }, env: Record<string, string> = {}) {
  // It runs from the build, as the tests' instances do: made here, since no test run may have made it.
  await buildService();
  const port = await freePort();
  const instance = spawnService({
    ...UNLIMITED,
    PORT: String(port),
    DATA_DIR: database.dataDir,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'warn',
    ...env,
  });
  process.on('exit', () => instance.child.kill('SIGKILL'));
  unpin(instance.child.pid!);
  await instance.ready();
  return { ...instance, url: `http://127.0.0.1:${port}` };
}

/** CPU time, in µs, of the processes `which` picks by name and pid (Linux's /proc; none
 * elsewhere), each by its pid: PostgreSQL's server and backends, or another instance of ours. */
function cpuOfProcesses(which: (name: string, pid: number) => boolean): Map<number, number> {
  const cpu = new Map<number, number>();
  if (!fs.existsSync('/proc/self/stat')) return cpu;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (!which(stat.slice(stat.indexOf('(') + 1, close), Number(entry))) continue;
      // After the name: state, ppid, ... utime and stime are the 12th and 13th.
      const fields = stat.slice(close + 2).split(' ');
      cpu.set(Number(entry), (Number(fields[11]) + Number(fields[12])) * (1e6 / 100)); // USER_HZ is 100 on Linux
    } catch {
      // The process ended meanwhile.
    }
  }
  return cpu;
}

/** The CPU those processes spent between two readings: a process that ended between them (a
 * PostgreSQL backend whose connection closed) is left out, rather than taken away from the others
 * (the sum of the readings went below zero when one did). A process started between them counts
 * whole. */
const cpuSpent = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, used]) => sum + used - (before.get(pid) ?? 0), 0);

/** The rates the order path is tried at, lowest first, until one is not sustained. */
const RATES = (process.env.BENCH_RATES ?? '100,200,300,400,500,600,750,1000,1500,2000,3000,4000').split(',').map(Number);

/** `fraction` of a rate, then the rates above it: a target stated as a share of another
 * scenario's sustained rate is tried at exactly that share first. */
const ratesFrom = (rate: number, fraction: number) => {
  const start = Math.ceil(rate * fraction);
  return [start, ...RATES.filter((r) => r > start)];
};

async function orderPath(target: OrderTarget, rates = RATES) {
  const database = await orderDatabase(target.kind);
  const redis = target.instances === 2 ? await benchRedis() : null;
  const receiver = target.traced ? await serverProcess('test/bench/endpoint.ts', /endpoint at (\S+)/, { onLoadCore: true }) : null;
  const env = {
    ...target.env,
    ...(redis ? { REDIS_URL: redis.url } : {}),
    ...(receiver ? { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.match, OTEL_BSP_SCHEDULE_DELAY: '500' } : {}),
  };
  const config = benchConfig(database.url, database.dataDir, env, target.off);
  let statements = 0;
  const service = await startService(config, createLogger(config), { onQuery: () => void statements++ });
  const pos = await separatePos(database.dataDir, service.url);
  const { storeId, token } = await merchantTakingOrders(service, pos, database.dataDir);
  const endpoint = target.endpoint ? await partnerEndpoint(service.url, token) : null;
  const other = target.instances === 2 ? await anotherInstance(database, env) : null;
  const urls = [service.url, ...(other ? [other.url] : [])].map((url) => `${url}/v1/webhooks/dsp/sandbox-dsp`);
  const secrets = sandboxSecrets(database.dataDir);
  const name = `ours: order path, ${target.label}`;
  const othersCpu = () =>
    cpuOfProcesses((process, pid) => (target.kind === 'postgresql' && process === 'postgres') || pid === other?.child.pid);

  const run = async (rate: number, seconds: number) => {
    await fetch(`${pos.url}/v1/_sandbox/reset`, { method: 'POST' });
    const before = await service.services.db.order.count();
    const createdBefore = (await endpoint?.created()) ?? 0;
    const profiler = PROFILE ? await startProfile() : undefined;
    // The service's own work per order, whatever the machine's other load: its main thread's busy
    // time (event loop utilization), and the CPU of all its threads (the log's sync, checkpoints,
    // GC), with PostgreSQL's and the other instance's; and its statements.
    const loopBefore = performance.eventLoopUtilization();
    const cpuBefore = process.cpuUsage();
    const othersBefore = othersCpu();
    const statementsBefore = statements;
    const result = await load({
      url: urls[0],
      urls,
      signed: { secret: secrets.webhookSecret, kind: 'order', storeId },
      rate,
      duration: seconds,
      connections: 50,
    });
    // Every request is answered by now. Half a second more lets the last orders' deliveries (part
    // of an order's cost) run inside what is measured. A timer on purpose: waiting on their
    // arrival would poll the POS or the database from this process, whose CPU and statements are
    // what is measured; the minimal pipeline below is given the same half second.
    await new Promise((r) => setTimeout(r, 500));
    const loop = performance.eventLoopUtilization(loopBefore);
    const cpu = process.cpuUsage(cpuBefore);
    const others = cpuSpent(othersBefore, othersCpu());
    const ran = statements - statementsBefore;
    await profiler?.(`${name} at ${rate}/s`);
    const accepted = (await service.services.db.order.count()) - before;
    const perOrder: PerOrder = {
      mainThreadUs: Math.round((loop.active * 1000) / accepted),
      cpuUs: Math.round((cpu.user + cpu.system) / accepted),
      othersUs: Math.round(others / accepted),
      statements: other ? undefined : tenths(ran / accepted),
    };
    // Every order at the POS, and its accept at the DSP (the sandbox plays both).
    const accepts = (received: Received[]) =>
      received.filter((r) => r.path === '/v1/events' && (r.body as { type: string }).type === 'location.order.accept');
    let received: Received[] = [];
    let orders: Received[] = [];
    // With an endpoint, each order's order.created reached it too.
    const atEndpoint = async () => (endpoint ? (await endpoint.created()) - createdBefore : accepted);
    // Looked at every 200 ms for at most 15 s: what arrived by then is judged below.
    await polled(
      async () => {
        received = await pos.received();
        orders = received.filter((r) => r.path === '/v1/orders');
        return orders.length >= accepted && accepts(received).length >= accepted && (await atEndpoint()) >= accepted;
      },
      15_000,
      { everyMs: 200 },
    );
    const keys = new Set(orders.map((r) => r.headers['idempotency-key']));
    const first = new Map<unknown, Received>();
    for (const r of orders) if (!first.has(r.headers['idempotency-key'])) first.set(r.headers['idempotency-key'], r);
    const sentAt = new Map(
      [...first.values()].map((r) => [
        (r.body as { object: { dsp_order_id: string; sent_at: number } }).object.dsp_order_id,
        Number((r.body as { object: { sent_at: number } }).object.sent_at),
      ]),
    );
    const latencies = [...first.values()]
      .map((r) => r.at - Number((r.body as { object: { sent_at: number } }).object.sent_at))
      .sort((a, b) => a - b);
    // From the DSP's webhook to the DSP receiving location.order.accept, each order once.
    const acceptKeys = new Set(accepts(received).map((r) => r.headers['idempotency-key']));
    const firstAccepts = new Map<unknown, Received>();
    for (const r of accepts(received))
      if (!firstAccepts.has(r.headers['idempotency-key'])) firstAccepts.set(r.headers['idempotency-key'], r);
    const acceptLatencies = [...firstAccepts.values()]
      .map((r) => r.at - (sentAt.get((r.body as { data: { dsp_order_id: string } }).data.dsp_order_id) ?? r.at))
      .sort((a, b) => a - b);
    // Exactly once by idempotency key: a repeat after a timed-out attempt carries the same key
    // and the POS drops it; what counts is that every accepted order arrived under one key.
    return {
      rate,
      achieved: result.rps,
      accepted,
      arrived: keys.size,
      sentTwice: orders.length - keys.size,
      exactlyOnce: keys.size === accepted && acceptKeys.size === accepted && result.non2xx === 0 && (await atEndpoint()) >= accepted,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      acceptP50: percentile(acceptLatencies, 50),
      acceptP99: percentile(acceptLatencies, 99),
      answered: result,
      perOrder,
    };
  };
  type Run = Awaited<ReturnType<typeof run>>;
  const perOrderOf = (runs: Run[]): PerOrder => ({
    mainThreadUs: median(runs.map((r) => r.perOrder.mainThreadUs)),
    cpuUs: median(runs.map((r) => r.perOrder.cpuUs)),
    othersUs: median(runs.map((r) => r.perOrder.othersUs)),
    statements: other ? undefined : median(runs.map((r) => r.perOrder.statements!)),
  });
  // Warm-up: compiled code and open connections before anything is measured.
  setUp(name, await run(WARM_UP.rate, WARM_UP.seconds));
  const runs: Run[] = [];
  for (let i = 0; i < REPEAT; i++) runs.push(await run(200, 10));
  const steady = {
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    acceptP50: median(runs.map((r) => r.acceptP50)),
    acceptP99: median(runs.map((r) => r.acceptP99)),
    exactlyOnce: runs.every((r) => r.exactlyOnce),
    sentTwice: Math.max(...runs.map((r) => r.sentTwice)),
    ...perOrderOf(runs),
  };
  process.stdout.write(
    `${name} at 200/s, ${REPEAT} × 10 s: p50 ${steady.p50} ms, p99 ${steady.p99} ms (runs: ${runs.map((r) => r.p99).join(', ')}), accept at the DSP p50 ${steady.acceptP50} ms, p99 ${steady.acceptP99} ms, every order and accept exactly once: ${steady.exactlyOnce}, sent twice: ${steady.sentTwice}; ${perOrderLine(steady)}\n`,
  );
  let sustained = 0;
  let sentTwice = steady.sentTwice;
  let atSustained: PerOrder | undefined;
  /** Three runs at a rate: whether it was sustained, and the runs. */
  const tryRate = async (rate: number) => {
    const tries: Run[] = [];
    for (let i = 0; i < REPEAT; i++) {
      const r = await run(rate, 5);
      tries.push(r);
      sentTwice = Math.max(sentTwice, r.sentTwice);
      process.stdout.write(
        `${name} at ${rate}/s, run ${i + 1} of ${REPEAT}: achieved ${r.achieved.toFixed(0)}/s, p50 ${r.p50} ms, p99 ${r.p99} ms (webhook answered p50 ${r.answered.p50} ms, p99 ${r.answered.p99} ms), ${r.arrived}/${r.accepted} arrived once: ${r.exactlyOnce}, sent twice: ${r.sentTwice}; ${perOrderLine(r.perOrder)}\n`,
      );
    }
    // Sustained: in the median run the rate was reached and no queue grew (the median order
    // reached the POS within 50 ms), and every order of every run arrived exactly once. One run
    // alone passes or fails with the machine's speed at that moment.
    const achieved = median(tries.map((r) => r.achieved));
    const p50 = median(tries.map((r) => r.p50));
    const held = tries.every((r) => r.exactlyOnce) && achieved >= rate * 0.95 && p50 <= 50;
    process.stdout.write(
      `${name} at ${rate}/s, median of ${REPEAT}: achieved ${achieved.toFixed(0)}/s, p50 ${p50} ms: ${held ? 'sustained' : 'not sustained'}\n`,
    );
    return { held, tries };
  };
  // BENCH_RATES=300,400 tries only those rates (for a quick look). Up from the first rate while
  // each holds; when even the first does not (a scenario tried first at its target share of
  // another's rate), down from it until one does, so that the figure says how far short it fell.
  for (const rate of rates) {
    const { held, tries } = await tryRate(rate);
    if (!held) break;
    sustained = rate;
    atSustained = perOrderOf(tries);
  }
  if (!sustained) {
    // Down a tenth of the first rate at a time to half of it, then the usual rates: a scenario a
    // little short of its share is measured as that, not as the next hundred below it.
    const first = rates[0]!;
    const steps = [0.9, 0.8, 0.7, 0.6, 0.5].map((f) => Math.round(first * f));
    for (const rate of [...steps, ...RATES.filter((r) => r < steps.at(-1)!).reverse()]) {
      const { held, tries } = await tryRate(rate);
      if (!held) continue;
      sustained = rate;
      atSustained = perOrderOf(tries);
      break;
    }
  }
  // What the peers answered is what was recorded: no order failed, no message dead after a 2xx,
  // and no statement gave up waiting for a database connection (PostgreSQL's pool).
  const { db } = service.services;
  const faithful = {
    failed: await db.order.count({ where: { status: 'failed' } }),
    deadAfter2xx: await db.outboxMessage.count({ where: { status: 'dead', lastStatus: { gte: 200, lt: 300 } } }),
    poolTimeouts: poolState(db)?.timeouts ?? 0,
  };
  process.stdout.write(
    `${name}, over every rate tried: orders failed ${faithful.failed}, messages dead after a 2xx ${faithful.deadAfter2xx}, pool timeouts ${faithful.poolTimeouts}\n`,
  );
  await other?.kill('SIGTERM');
  pos.close();
  endpoint?.close();
  await service.close();
  // The receiver took the spans: tracing was on, not configured and silent.
  const traceExports = receiver ? ((await (await fetch(`${receiver.match}/count`)).json()) as { traceExports: number }).traceExports : 0;
  receiver?.stop();
  redis?.stop();
  await database.drop();
  return { steady, sustained, atSustained, sentTwice, withRedis: !!redis, traceExports, faithful };
}

/** A merchant's grant at the sandbox POS (or, as the client dspClientIdOf names, at the sandbox
 * DSP), got over HTTP as an onboarding gets it: the merchant allows the client at the authorize
 * form, and the code its redirect carries is exchanged for tokens. `id` is the grant's, which
 * the POS's location ids and the DSP's store ids carry. */
async function sandboxGrant(posUrl: string, clientId: string, clientSecret: string) {
  const redirect_uri = 'https://bench.example/callback';
  const allowed = await fetch(`${posUrl}/v1/authorize`, {
    method: 'POST',
    body: new URLSearchParams({ client_id: clientId, redirect_uri, decision: 'allow' }),
    redirect: 'manual',
  });
  const code = new URL(allowed.headers.get('location') ?? redirect_uri).searchParams.get('code');
  const exchanged = await fetch(`${posUrl}/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'authorization_code', client_id: clientId, client_secret: clientSecret, code, redirect_uri }),
  });
  if (!exchanged.ok) throw new Error(`sandbox token: ${exchanged.status} ${await exchanged.text()}`);
  return (await exchanged.json()) as { access_token: string; id: string };
}

/** Whether every one of `accepted` orders reached the POS, and its accept the DSP, each under one
 * idempotency key, and how long after the DSP sent the order: orderPath's judgement of ours. */
async function arrivals(pos: { received: () => Promise<Received[]> }, accepted: number) {
  const orders = (received: Received[]) => received.filter((r) => r.path === '/v1/orders');
  const accepts = (received: Received[]) =>
    received.filter((r) => r.path === '/v1/events' && (r.body as { type: string }).type === 'location.order.accept');
  let received: Received[] = [];
  // Looked at every 200 ms for at most 15 s: what arrived by then is judged below.
  await polled(
    async () => {
      received = await pos.received();
      return orders(received).length >= accepted && accepts(received).length >= accepted;
    },
    15_000,
    { everyMs: 200 },
  );
  // The first call under each key: a repeat after a timed-out attempt carries the same key.
  const firstOf = (calls: Received[]) => {
    const first = new Map<unknown, Received>();
    for (const r of calls) if (!first.has(r.headers['idempotency-key'])) first.set(r.headers['idempotency-key'], r);
    return [...first.values()];
  };
  const sent = (r: Received) => (r.body as { object: { dsp_order_id: string; sent_at: number } }).object;
  const firstOrders = firstOf(orders(received));
  const firstAccepts = firstOf(accepts(received));
  const sentAt = new Map(firstOrders.map((r) => [sent(r).dsp_order_id, Number(sent(r).sent_at)]));
  const latencies = firstOrders.map((r) => r.at - Number(sent(r).sent_at)).sort((a, b) => a - b);
  const acceptLatencies = firstAccepts
    .map((r) => r.at - (sentAt.get((r.body as { data: { dsp_order_id: string } }).data.dsp_order_id) ?? r.at))
    .sort((a, b) => a - b);
  return {
    arrived: firstOrders.length,
    sentTwice: orders(received).length - firstOrders.length,
    allOnce: firstOrders.length === accepted && firstAccepts.length === accepted,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    acceptP50: percentile(acceptLatencies, 50),
    acceptP99: percentile(acceptLatencies, 99),
  };
}

/** A scenario whose warm-up did not bring every order to the POS and its accept to the DSP did
 * not set up (a store without its menus refuses every order; a peer that cannot reach the
 * service receives none): the bench stops there, with why, and prints no figure of it. */
function setUp(name: string, warm: { accepted: number; arrived: number; exactlyOnce: boolean; answered: Result }) {
  if (warm.exactlyOnce && warm.accepted > 0) return;
  throw new Error(
    `${name}: its setup did not finish: of the warm-up's ${warm.answered.total} orders ${warm.answered.non2xx} were refused (a store without its menus?) and ${warm.arrived} of the ${warm.accepted} taken reached the POS with their accept at the DSP (a peer that cannot reach the service?)`,
  );
}

/** The ceiling of the order path: the same pipeline written minimally (./minimal-pipeline.ts),
 * with the same durability and peers, in a process of its own pinned as our service is; the
 * sandbox POS (the DSP too) in its own on the load's core. Measured as orderPath measures ours
 * (the same load, steady rate, rates and rule for sustained), so ours can be given as a share
 * of it. */
async function minimalPath(kind: OrderTarget['kind'], rates = RATES) {
  const database = await orderDatabase(kind);
  const pos = await separatePos(database.dataDir);
  const secrets = sandboxSecrets(database.dataDir);
  const posGrant = await sandboxGrant(pos.url, secrets.clientId, secrets.clientSecret);
  const dspGrant = await sandboxGrant(pos.url, dspClientIdOf(secrets.clientId), secrets.clientSecret);
  // Austin's store, as merchantTakingOrders binds: the same cart, so bodies of the same size.
  const storeId = `store_${dspGrant.id}_austin`;
  const server = await serverProcess('test/bench/minimal-pipeline.ts', /minimal pipeline at (\S+)/, {
    env: {
      ...process.env,
      MINIMAL_DATABASE: database.url,
      MINIMAL_POS_URL: pos.url,
      MINIMAL_POS_TOKEN: posGrant.access_token,
      MINIMAL_DSP_TOKEN: dspGrant.access_token,
      MINIMAL_WEBHOOK_SECRET: secrets.webhookSecret,
      MINIMAL_STORE_ID: storeId,
      MINIMAL_POS_LOCATION_ID: `loc_2_${posGrant.id}`,
      // The store's menu: the sandbox cart's items, which every order of the load carries.
      MINIMAL_MENU_ITEMS: (sandboxOrder(storeId, {}).items as { service_id: string }[]).map((item) => item.service_id).join(','),
    },
  });
  const name = `minimal pipeline: order path, ${kind === 'postgresql' ? 'PostgreSQL' : 'SQLite'}`;
  type Stats = { orders: number; pending: number; activeMs: number; cpuUs: number };
  const stats = async () => (await (await fetch(`${server.match}/_bench/stats`)).json()) as Stats;
  const postgresCpu = () => cpuOfProcesses((process) => kind === 'postgresql' && process === 'postgres');

  const run = async (rate: number, seconds: number) => {
    await fetch(`${pos.url}/v1/_sandbox/reset`, { method: 'POST' });
    const before = await stats();
    const othersBefore = postgresCpu();
    const result = await load({
      url: `${server.match}/v1/webhooks/dsp/sandbox-dsp`,
      signed: { secret: secrets.webhookSecret, kind: 'order', storeId },
      rate,
      duration: seconds,
      connections: 50,
    });
    // The same half second after the last answer as orderPath gives ours, and for the same
    // reason: a timer, since polling its stats would add to the work measured.
    await new Promise((r) => setTimeout(r, 500));
    // Its work per order as orderPath counts ours: its main thread's busy time and all its
    // threads' CPU (it reports its own), and PostgreSQL's.
    const after = await stats();
    const accepted = after.orders - before.orders;
    const perOrder: PerOrder = {
      mainThreadUs: Math.round(((after.activeMs - before.activeMs) * 1000) / accepted),
      cpuUs: Math.round((after.cpuUs - before.cpuUs) / accepted),
      othersUs: Math.round(cpuSpent(othersBefore, postgresCpu()) / accepted),
    };
    const arrived = await arrivals(pos, accepted);
    return {
      ...arrived,
      rate,
      achieved: result.rps,
      accepted,
      exactlyOnce: arrived.allOnce && result.non2xx === 0,
      answered: result,
      perOrder,
    };
  };
  type Run = Awaited<ReturnType<typeof run>>;
  const perOrderOf = (runs: Run[]): PerOrder => ({
    mainThreadUs: median(runs.map((r) => r.perOrder.mainThreadUs)),
    cpuUs: median(runs.map((r) => r.perOrder.cpuUs)),
    othersUs: median(runs.map((r) => r.perOrder.othersUs)),
  });
  setUp(name, await run(WARM_UP.rate, WARM_UP.seconds)); // warm-up, as for ours
  const runs: Run[] = [];
  for (let i = 0; i < REPEAT; i++) runs.push(await run(200, 10));
  const steady = {
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    acceptP50: median(runs.map((r) => r.acceptP50)),
    acceptP99: median(runs.map((r) => r.acceptP99)),
    exactlyOnce: runs.every((r) => r.exactlyOnce),
    sentTwice: Math.max(...runs.map((r) => r.sentTwice)),
    ...perOrderOf(runs),
  };
  process.stdout.write(
    `${name} at 200/s, ${REPEAT} × 10 s: p50 ${steady.p50} ms, p99 ${steady.p99} ms (runs: ${runs.map((r) => r.p99).join(', ')}), accept at the DSP p50 ${steady.acceptP50} ms, p99 ${steady.acceptP99} ms, every order and accept exactly once: ${steady.exactlyOnce}, sent twice: ${steady.sentTwice}; ${perOrderLine(steady)}\n`,
  );
  // orderPath's rule for sustained: in the median run the rate was reached and the median order
  // reached the POS within 50 ms, and every order of every run arrived exactly once.
  const tryRate = async (rate: number) => {
    const tries: Run[] = [];
    for (let i = 0; i < REPEAT; i++) {
      const r = await run(rate, 5);
      tries.push(r);
      process.stdout.write(
        `${name} at ${rate}/s, run ${i + 1} of ${REPEAT}: achieved ${r.achieved.toFixed(0)}/s, p50 ${r.p50} ms, p99 ${r.p99} ms (webhook answered p50 ${r.answered.p50} ms, p99 ${r.answered.p99} ms), ${r.arrived}/${r.accepted} arrived once: ${r.exactlyOnce}, sent twice: ${r.sentTwice}; ${perOrderLine(r.perOrder)}\n`,
      );
    }
    const achieved = median(tries.map((r) => r.achieved));
    const p50 = median(tries.map((r) => r.p50));
    const held = tries.every((r) => r.exactlyOnce) && achieved >= rate * 0.95 && p50 <= 50;
    process.stdout.write(
      `${name} at ${rate}/s, median of ${REPEAT}: achieved ${achieved.toFixed(0)}/s, p50 ${p50} ms: ${held ? 'sustained' : 'not sustained'}\n`,
    );
    return { held, tries };
  };
  // Up while each rate holds; when the first does not, down from it as orderPath goes.
  let sustained = 0;
  let atSustained: PerOrder | undefined;
  for (const rate of rates) {
    const { held, tries } = await tryRate(rate);
    if (!held) break;
    sustained = rate;
    atSustained = perOrderOf(tries);
  }
  if (!sustained) {
    const first = rates[0]!;
    const steps = [0.9, 0.8, 0.7, 0.6, 0.5].map((f) => Math.round(first * f));
    for (const rate of [...steps, ...RATES.filter((r) => r < steps.at(-1)!).reverse()]) {
      const { held, tries } = await tryRate(rate);
      if (!held) continue;
      sustained = rate;
      atSustained = perOrderOf(tries);
      break;
    }
  }
  // Nothing it accepted is left unsent once the runs are over.
  const left = await stats();
  process.stdout.write(
    `${name}, highest sustained rate ${sustained}/s${atSustained ? ` (${perOrderLine(atSustained)})` : ''}; messages still pending after every rate tried: ${left.pending}\n`,
  );
  server.stop();
  pos.close();
  await database.drop();
  return { steady, sustained, atSustained, pending: left.pending };
}

/** Seeds `count` orders of one organization and location (a tenth failed) and as many delivered
 * outbox messages (spread over the last 30 days), straight into the database, in batches: a
 * million is what a year of a busy merchant leaves. */
async function seedOrders(
  service: RunningService,
  kind: OrderTarget['kind'],
  where: { orgId: string; locationId: string; partnerId: string },
  count: number,
  prefix: string,
) {
  const body = JSON.stringify(sandboxOrder('store_seed', { fulfillment_type: 'pickup' }));
  const sql = statementsOf(service.services.db);
  const started = Date.now();
  const BATCH = kind === 'postgresql' ? 20_000 : 2_000;
  for (let first = 0; first < count; first += BATCH) {
    const rows = Math.min(BATCH, count - first);
    const now = Date.now();
    await sql.transaction(async (run) => {
      const orders: Record<string, unknown>[] = [];
      const messages: Record<string, unknown>[] = [];
      for (let i = first; i < first + rows; i++) {
        const at = new Date(now - 30 * 86_400_000 + (i / count) * 30 * 86_400_000);
        orders.push({
          id: `ord_${prefix}_${i}`,
          partnerId: where.partnerId,
          orgId: where.orgId,
          locationId: where.locationId,
          dspSource: 'sandbox-dsp',
          dspStoreId: 'store_seed',
          dspOrderId: `${prefix}_${i}`,
          status: i % 10 === 0 ? 'failed' : 'completed',
          deliveryStatus: 'delivered',
          // The end of day sums these (modules/reports).
          currency: 'usd',
          subtotal: 2500,
          tax: 200,
          restaurantTip: i % 3 === 0 ? 100 : 0,
          total: 2700 + (i % 3 === 0 ? 100 : 0),
          body,
          createdAt: at,
          updatedAt: at,
        });
        messages.push({
          id: `msg_${prefix}_${i}`,
          partnerId: where.partnerId,
          orgId: where.orgId,
          kind: 'order.created',
          source: 'sandbox-pos',
          operation: 'orders',
          body,
          idempotencyKey: `order.created:ord_${prefix}_${i}`,
          status: 'delivered',
          attempts: 1,
          nextAttemptAt: at,
          createdAt: at,
          deliveredAt: at,
        });
      }
      // Statements of a few hundred rows: within both databases' bounds on parameters.
      for (let i = 0; i < rows; i += 200) {
        await run(insertRowsStep('Order', orders.slice(i, i + 200)));
        await run(insertRowsStep('OutboxMessage', messages.slice(i, i + 200)));
      }
    });
  }
  await sql.write({ sql: kind === 'postgresql' ? 'ANALYZE' : 'PRAGMA optimize' });
  process.stdout.write(
    `scale of data, ${kind}: seeded ${count} orders and as many delivered messages in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
  return count;
}

/** The read path, the dashboard's newest orders (all, and the failed ones) and the order path's
 * intake, on a fresh database and again with a million orders in it; then how long pruning a
 * day's worth of delivered messages takes while orders flow at 200/s. */
async function scaleOfData(kind: OrderTarget['kind']) {
  const database = await orderDatabase(kind);
  const config = benchConfig(database.url, database.dataDir);
  const service = await startService(config, createLogger(config));
  const pos = await separatePos(database.dataDir, service.url);
  const { storeId, token, orgId } = await merchantTakingOrders(service, pos, database.dataDir);
  const location = await service.services.db.location.findFirstOrThrow({ where: { orgId } });
  const secrets = sandboxSecrets(database.dataDir);
  const query = (text: string) => () => ({
    ...graphqlJob(service.url, { authorization: `Bearer ${token}` }),
    body: JSON.stringify({ query: text, variables: { orgId } }),
  });
  const scenarios = (label: string): Scenario[] => [
    { name: `scale ${kind} ${label}: org locations`, job: query(READ_QUERY) },
    {
      name: `scale ${kind} ${label}: newest 50 orders`,
      job: query('query($orgId: ID!) { orders(orgId: $orgId, first: 50) { orders { id status createdAt } nextCursor } }'),
    },
    {
      name: `scale ${kind} ${label}: newest 50 failed`,
      job: query(
        'query($orgId: ID!) { orders(orgId: $orgId, status: failed, first: 50) { orders { id status failureReason } nextCursor } }',
      ),
    },
    {
      name: `scale ${kind} ${label}: order intake`,
      job: () => ({ url: `${service.url}/v1/webhooks/dsp/sandbox-dsp`, signed: { secret: secrets.webhookSecret, kind: 'order', storeId } }),
    },
  ];
  // A fresh database holds a thousand orders: pages of 50 to read, as on a merchant's first days.
  const where = { orgId, locationId: location.id, partnerId: location.partnerId };
  await seedOrders(service, kind, where, 1000, 'first');
  const fresh = await inTurns(scenarios('fresh'));
  const seeded = await seedOrders(service, kind, where, Number(process.env.BENCH_SCALE_ORDERS ?? 1_000_000), 'year');
  const full = await inTurns(scenarios(`${seeded} orders`));
  const endOfDay = await endOfDayBeside(service, kind, where, token);
  // Pruning a day's worth (the oldest day) of delivered messages while orders come at 200/s.
  const flowing = load({
    url: `${service.url}/v1/webhooks/dsp/sandbox-dsp`,
    signed: { secret: secrets.webhookSecret, kind: 'order', storeId },
    rate: 200,
    duration: 30,
  });
  const startedPruning = Date.now();
  const pruned = await prune(service.services.db, {
    keep: { outboxDays: 29, webhooksDays: 29, catalogDays: 29 },
    eventDays: 30,
    attemptDays: 30,
    idempotencyMs: 86_400_000,
    replayMs: 86_400_000,
  });
  const pruneSeconds = (Date.now() - startedPruning) / 1000;
  const during = await flowing;
  process.stdout.write(
    `scale of data, ${kind}: pruned ${pruned.OutboxMessage} delivered messages (a day's worth) in ${pruneSeconds.toFixed(1)} s while orders came at 200/s (p99 ${during.p99} ms, non-2xx ${during.non2xx})\n`,
  );
  pos.close();
  await service.close();
  await database.drop();
  return { fresh, full, seeded, endOfDay, pruned: pruned.OutboxMessage ?? 0, pruneSeconds, during };
}

/** The end of day (issue 65's target: a day of 2,000 orders in at most 100 ms, 31 days of 60,000
 * in at most 1 s, sums in the database): a second store of the organization, beside the
 * million-order one, with 60,000 orders over the last 30 days (2,000 a day), its statement of
 * yesterday and of the 31 days to today read through dailyStatements. */
async function endOfDayBeside(
  service: RunningService,
  kind: OrderTarget['kind'],
  where: { orgId: string; locationId: string; partnerId: string },
  token: string,
) {
  const db = service.services.db;
  const {
    id: _id,
    providerId,
    activeProviderId: _active,
    ...rest
  } = await db.location.findUniqueOrThrow({ where: { id: where.locationId } });
  const second = await db.location.create({
    data: { ...rest, id: `loc_eod_${kind}`, providerId: `${providerId}_eod`, activeProviderId: `${providerId}_eod` } as never,
  });
  await seedOrders(service, kind, { ...where, locationId: second.id }, 60_000, 'eod');
  // Its orders go back 30 days: the organization is made as old (a statement starts no earlier).
  await db.organization.update({ where: { id: where.orgId }, data: { createdAt: new Date(Date.now() - 40 * 86_400_000) } });
  const day = (offset: number) => localDate(Date.now() - offset * 86_400_000, second.timezone);
  // One caller at a time: the target is how long one statement takes to answer, not how many
  // answer at once (with twenty callers each waits behind the others).
  const statements = (from: string, to: string) => () => ({
    ...graphqlJob(service.url, { authorization: `Bearer ${token}` }),
    connections: 1,
    body: JSON.stringify({
      query:
        'query($o: ID!, $l: ID!, $f: String!, $t: String!) { dailyStatements(orgId: $o, locationId: $l, from: $f, to: $t) { date totals { taken amounts { subtotal total } } } }',
      variables: { o: where.orgId, l: second.id, f: from, t: to },
    }),
  });
  return inTurns([
    { name: `end of day ${kind}: a day of 2,000 orders`, job: statements(day(1), day(1)) },
    { name: `end of day ${kind}: 31 days of 60,000 orders`, job: statements(day(30), day(0)) },
  ]);
}

/** kill -9 of an instance in the middle of 500 orders, the POS taking 2 s to answer each, so the
 * orders of the last 2 s are being sent at that moment; the instance is started again at once.
 * Measured: how long from that start until every order the database holds is at the POS, and
 * whether any arrived twice. */
async function crashRecovery(kind: OrderTarget['kind']) {
  const database = await orderDatabase(kind);
  const config = benchConfig(database.url, database.dataDir);
  const setup = await startService(config);
  const pos = await separatePos(database.dataDir, setup.url);
  const { storeId } = await merchantTakingOrders(setup, pos, database.dataDir);
  await setup.close();
  const db = openDatabase(database.url);
  const slow = (count: number) =>
    fetch(`${pos.url}/v1/_sandbox/slow`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/v1/orders', count, delay_ms: 2000 }),
    });
  await slow(1_000_000);
  const first = await anotherInstance(database);
  const sending = load({
    url: `${first.url}/v1/webhooks/dsp/sandbox-dsp`,
    signed: { secret: sandboxSecrets(database.dataDir).webhookSecret, kind: 'order', storeId },
    rate: 250,
    duration: 2,
    connections: 50,
  });
  // Killed once it has taken a good share of them (about a second's worth), whatever the load
  // generator's own start took: on a slow machine a fixed second after starting it could come
  // before its first order.
  await polled(async () => (await db.order.count()) >= 200, 10_000, { everyMs: 20 });
  await first.kill('SIGKILL');
  await slow(0);
  const restarted = Date.now();
  const second = await anotherInstance(database);
  const ready = Date.now() - restarted;
  const answered = await sending;
  const stored = new Set((await db.order.findMany({ select: { id: true } })).map((o) => `order.created:${o.id}`));
  const atPos = async () => (await pos.received()).filter((r) => r.path === '/v1/orders');
  const heldAtRestart = stored.size - new Set((await atPos()).map((r) => r.headers['idempotency-key'])).size;
  let arrived: Received[] = [];
  // Looked at every 50 ms for at most a minute: what arrived by then is reported.
  await polled(
    async () => {
      arrived = await atPos();
      return new Set(arrived.map((r) => r.headers['idempotency-key'])).size >= stored.size;
    },
    60_000,
    { everyMs: 50 },
  );
  const recoveredMs = Date.now() - restarted;
  const keys = new Set(arrived.map((r) => r.headers['idempotency-key']));
  const result = {
    stored: stored.size,
    answered2xx: answered.total - answered.non2xx,
    heldAtRestart,
    readyMs: ready,
    recoveredMs,
    allArrived: [...stored].every((key) => keys.has(key)),
    sentTwice: arrived.length - keys.size,
  };
  process.stdout.write(
    `ours: kill -9 in the middle of 500 orders, ${kind}: ${result.stored} stored (${result.answered2xx} answered 2xx), ${result.heldAtRestart} not at the POS at the restart; restarted instance ready in ${result.readyMs} ms; every stored order at the POS ${(result.recoveredMs / 1000).toFixed(1)} s after the restart: ${result.allArrived}; sent twice: ${result.sentTwice}\n`,
  );
  await second.kill('SIGTERM');
  await db.$disconnect();
  pos.close();
  await database.drop();
  return result;
}

const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}${taskset ? ', servers on core 0, load on core 1' : ', no taskset'}`;
process.stdout.write(`machine: ${machine}\nscenario runs: ${REPEAT} × ${SECONDS} s, medians\n\n`);
// The PostgreSQL scenarios run last: their Prisma client builds PostgreSQL's query compiler in
// this process (about 9 MB that stays), which a service on SQLite never has, and every later
// scenario's collections would work through it.
// BENCH_ONLY=read,webhook,catalog,orders,orders-unordered,orders-endpoint,orders-normal,orders-traced,crash,scale,minimal,read-pg,orders-pg,orders-pg2,crash-pg,scale-pg,minimal-pg runs
// only those scenarios (for profiling one path); the table and results.md need them all.
const only = process.env.BENCH_ONLY?.split(',');
const wanted = (name: string) => !only || only.includes(name);
// PostgreSQL: DATABASE_URL's server, or a throw-away cluster (./postgres.ts), on any core: the
// operating system places it, as it would beside a service on a small machine.
const onPostgres = ['read-pg', 'orders-pg', 'orders-pg2', 'crash-pg', 'scale-pg', 'minimal-pg'];
const postgres = onPostgres.some(wanted) ? await benchPostgres() : null;
process.on('exit', () => postgres?.stop());
// Asked for by name, a PostgreSQL scenario that cannot run stops the bench; the full bench says
// it leaves them out (a machine without PostgreSQL measures the rest).
if (!postgres && only && onPostgres.some(wanted))
  throw new Error('postgresql: no DATABASE_URL and no PostgreSQL binaries: the scenarios asked for cannot run');
if (!postgres && onPostgres.some(wanted))
  process.stdout.write('postgresql: no DATABASE_URL and no PostgreSQL binaries: its scenarios are left out\n\n');
if (only) {
  if (wanted('ceilings')) await ceilings();
  if (wanted('read')) await readPath('sqlite');
  if (wanted('webhook')) await webhookPath();
  if (wanted('catalog')) process.stdout.write(`${JSON.stringify(await largeCatalogs())}\n`);
  if (wanted('orders')) await orderPath(SQLITE_FULL);
  if (wanted('orders-unordered')) await orderPath(SQLITE_UNORDERED);
  if (wanted('orders-endpoint')) await orderPath(SQLITE_ENDPOINT);
  if (wanted('orders-normal')) await orderPath(SQLITE_NORMAL);
  if (wanted('orders-traced')) await orderPath(SQLITE_TRACED);
  if (wanted('crash')) await crashRecovery('sqlite');
  if (wanted('scale')) await scaleOfData('sqlite');
  if (wanted('minimal')) await minimalPath('sqlite');
  if (postgres && wanted('scale-pg')) await scaleOfData('postgresql');
  if (postgres && wanted('read-pg')) await readPath('postgresql');
  if (postgres && wanted('orders-pg')) await orderPath(POSTGRES_ONE);
  if (postgres && wanted('orders-pg2')) await orderPath(POSTGRES_TWO);
  if (postgres && wanted('crash-pg')) await crashRecovery('postgresql');
  if (postgres && wanted('minimal-pg')) await minimalPath('postgresql');
  process.exit(0);
}
const c = await ceilings();
const sqlite = await readPath('sqlite');
const webhook = await webhookPath();
const catalogs = await largeCatalogs();
const orders = await orderPath(SQLITE_FULL);
const unordered = await orderPath(SQLITE_UNORDERED);
// Tried first at 0.85 of the sustained rate without an endpoint: the target.
const withEndpoint = await orderPath(SQLITE_ENDPOINT, ratesFrom(orders.sustained, 0.85));
const ordersNormal = await orderPath(SQLITE_NORMAL);
// Tried first at 0.80 of the sustained rate untraced: the target.
const traced = await orderPath(SQLITE_TRACED, ratesFrom(orders.sustained, 0.8));
const crash = await crashRecovery('sqlite');
const pg = postgres
  ? {
      read: await readPath('postgresql'),
      orders: await orderPath(POSTGRES_ONE),
      twoInstances: await orderPath(POSTGRES_TWO),
      crash: await crashRecovery('postgresql'),
    }
  : undefined;

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const perOrder = (r: PerOrder) =>
  `the service's main thread ${(r.mainThreadUs / 1000).toFixed(2)} ms an order (all its threads ${(r.cpuUs / 1000).toFixed(2)} ms${r.othersUs ? `; PostgreSQL ${(r.othersUs / 1000).toFixed(2)} ms` : ''})${r.statements === undefined ? '' : `; ${r.statements} statements`}`;
// The pacer's latencies are to 0.1 ms: the floor only keeps a zero p50 from dividing.
const tail = (r: Summary) => `p99/p50 ${(r.p99 / Math.max(r.p50, 0.1)).toFixed(1)}`;
const recovery = (r: Awaited<ReturnType<typeof crashRecovery>>) => [
  `${(r.recoveredMs / 1000).toFixed(1)} s after the restart`,
  'target ≤ 10 s',
  `${r.stored} orders stored, ${r.heldAtRestart} not at the POS at the restart; all arrived: ${r.allArrived}; sent twice: ${r.sentTwice}; instance ready in ${(r.readyMs / 1000).toFixed(1)} s`,
];
type OrderRun = Awaited<ReturnType<typeof orderPath>>;
const steadyOrders = (o: OrderRun) => [
  `p50 ${o.steady.p50} ms, p99 ${o.steady.p99} ms`,
  'target p99 ≤ 25 ms',
  `exactly once: ${o.steady.exactlyOnce}; ${perOrder(o.steady)}`,
];
const rows = [
  [
    'read path, SQLite',
    `${sqlite.max.rps.toFixed(0)} req/s`,
    `${ratio(sqlite.max.rps, sqlite.peer.rps)} of the Yoga+Pothos peer (target ≥ 1.3×)`,
    `${ratio(sqlite.max.rps, sqlite.jit.rps)} of the graphql-jit ceiling`,
  ],
  [
    'read path, SQLite, at half its max',
    `p50 ${sqlite.half.p50} ms, p99 ${sqlite.half.p99} ms (runs: ${sqlite.half.p99s.join(', ')})`,
    `p99 ${tenths(sqlite.half.p99 - sqlite.floor.p99)} ms above the floor below (target ≤ 2 ms)`,
    `inside the service: p50 ${sqlite.inService.p50} ms, p99 ${sqlite.inService.p99} ms (target p99 ≤ 3× p50; event loop stalled at most ${sqlite.inService.loopMax} ms)`,
  ],
  [
    'node:http fixed JSON at that rate, the same pacer',
    `p50 ${sqlite.floor.p50} ms, p99 ${sqlite.floor.p99} ms (runs: ${sqlite.floor.p99s.join(', ')})`,
    tail(sqlite.floor),
    'the tail of the machine and the load generator alone',
  ],
  [
    'read path, SQLite, rate limits and GraphQL bounds on vs off',
    `${sqlite.max.rps.toFixed(0)} vs ${sqlite.unlimited.rps.toFixed(0)} req/s`,
    `${ratio(sqlite.max.rps, sqlite.unlimited.rps)} of limits off (target ≥ 0.90×)`,
    'in turns, one partner under its limit',
  ],
  [
    'read path, SQLite, database round-trips per request (median of 21)',
    `${sqlite.roundTrips.median}`,
    'nesting depth 3 (target ≤ 3)',
    `each request ${sqlite.roundTrips.min}-${sqlite.roundTrips.max} (a background poll or a session check can fall in)`,
  ],
  [
    'webhook path (verify, store, answer)',
    `${webhook.rps.toFixed(0)} req/s`,
    `${ratio(webhook.rps, webhook.fastify.rps)} of Fastify fixed JSON (target ≥ 0.40×)`,
    '',
  ],
  [
    'a 9 MB catalog read, stored and published (SQLite)',
    `event loop held at most ${catalogs.loopMaxMs} ms`,
    'target ≤ 100 ms',
    `published in ${(catalogs.publishedMs / 1000).toFixed(1)} s`,
  ],
  [
    'a 165 MB catalog refused unread (SQLite)',
    `${catalogs.refusedMs} ms from the POS's catalog.updated to the refusal stored`,
    'target < 1000 ms',
    `/health answered within ${catalogs.healthSlowestMs} ms throughout (target < 100 ms)`,
  ],
  ['order path, SQLite, at a steady 200/s (median of the runs)', ...steadyOrders(orders)],
  [
    'order path, SQLite, highest sustained rate (median of the runs at each rate; all exactly once)',
    `${orders.sustained}/s`,
    'target ≥ 1000/s',
    orders.atSustained ? `at that rate ${perOrder(orders.atSustained)}` : '',
  ],
  [
    'order path, SQLite, from the DSP’s webhook to the DSP receiving location.order.accept, at 200/s',
    `p50 ${orders.steady.acceptP50} ms, p99 ${orders.steady.acceptP99} ms`,
    'target p99 ≤ 50 ms',
    'with the intake checks against the published menus; every accept exactly once',
  ],
  [
    'order path, SQLite, the ordering key on vs off (the bench turns it off), highest sustained rate',
    `${orders.sustained}/s vs ${unordered.sustained}/s`,
    `${ratio(orders.sustained, Math.max(unordered.sustained, 1))} of off (target ≥ 0.90×)`,
    `at 200/s accept p99 ${orders.steady.acceptP99} vs ${unordered.steady.acceptP99} ms`,
  ],
  [
    'order path, SQLite, with a partner endpoint subscribed to every event vs without, highest sustained rate',
    `${withEndpoint.sustained}/s vs ${orders.sustained}/s`,
    `${ratio(withEndpoint.sustained, Math.max(orders.sustained, 1))} of without (target ≥ 0.85×)`,
    `every order's order.created at the endpoint; at 200/s p99 ${withEndpoint.steady.p99} vs ${orders.steady.p99} ms`,
  ],
  [
    'order path, SQLITE_SYNCHRONOUS=normal, at 200/s',
    `p50 ${ordersNormal.steady.p50} ms, p99 ${ordersNormal.steady.p99} ms`,
    `highest sustained ${ordersNormal.sustained}/s`,
    `exactly once: ${ordersNormal.steady.exactlyOnce}`,
  ],
  [
    'order path, SQLite, traces exported over OTLP/HTTP to a receiver on this machine vs no tracing, highest sustained rate',
    `${traced.sustained}/s vs ${orders.sustained}/s`,
    `${ratio(traced.sustained, Math.max(orders.sustained, 1))} of untraced (target ≥ 0.80×)`,
    `${traced.traceExports} exports received; at 200/s p99 ${traced.steady.p99} vs ${orders.steady.p99} ms`,
  ],
  ['kill -9 in the middle of 500 orders, SQLite: every order at the POS', ...recovery(crash)],
  ...(pg
    ? [
        [
          'read path, PostgreSQL',
          `${pg.read.max.rps.toFixed(0)} req/s`,
          `${ratio(pg.read.max.rps, pg.read.peer.rps)} of the peer (target ≥ 1.0×, goal 1.2×)`,
          `database round-trips per request ${pg.read.roundTrips.median} (target 1); ${ratio(pg.read.max.rps, pg.read.jit.rps)} of the graphql-jit ceiling`,
        ],
        ['order path, PostgreSQL, at a steady 200/s', ...steadyOrders(pg.orders)],
        [
          'order path, PostgreSQL, from the DSP’s webhook to location.order.accept at the DSP, at 200/s',
          `p50 ${pg.orders.steady.acceptP50} ms, p99 ${pg.orders.steady.acceptP99} ms`,
          'every accept exactly once',
          '',
        ],
        [
          'order path, PostgreSQL, highest sustained rate',
          `${pg.orders.sustained}/s`,
          'target ≥ 500/s',
          pg.orders.atSustained ? `at that rate ${perOrder(pg.orders.atSustained)}` : '',
        ],
        [
          'order path, PostgreSQL, two instances (orders sent to each in turn), highest sustained rate',
          `${pg.twoInstances.sustained}/s`,
          `orders sent twice: ${pg.twoInstances.sentTwice} (target 0)`,
          `at 200/s p50 ${pg.twoInstances.steady.p50} ms, p99 ${pg.twoInstances.steady.p99} ms; ${pg.twoInstances.withRedis ? 'with Redis' : 'no Redis'}; the second instance on any core`,
        ],
        ['kill -9 in the middle of 500 orders, PostgreSQL: every order at the POS', ...recovery(pg.crash)],
      ]
    : []),
  [
    'ceilings, one after the other',
    `node:http ${c.http.rps.toFixed(0)}, graphql-jit ${c.jit.rps.toFixed(0)}, Fastify ${c.fastify.rps.toFixed(0)}, peer ${c.peer.rps.toFixed(0)} req/s`,
    'the ratios above are to the runs in turns with ours',
    '',
  ],
];
const table = ['| scenario | figure | ratio / target | |', '|---|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const report = `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}.\n\n${table}\n`;
fs.writeFileSync(path.join(import.meta.dirname, 'results.md'), report);
process.stdout.write(`\n${report}`);
process.exit(0);
