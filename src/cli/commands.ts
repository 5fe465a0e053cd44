// The command line: `npm start` and `npm run cli -- <command>`, one handler per command. With
// --json a command prints one JSON object on stdout and nothing else.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { databaseUrl, providerOf, sqliteFile } from '../db/url.js';
import { createLogger } from '../app/log.js';
import { prepareDatabase } from '../app/database.js';
import { applyPendingMigrations } from '../db/schema-engine.js';
import { createPartner } from '../modules/auth/service.js';
import { toWire } from '../http/rest-route.js';
import { SCOPES, isScope } from '../common/scopes.js';
import { deleteProvider, findProvider, listProviders, saveProvider, type ProviderInput } from '../integrations/providers.js';
import { ordersWaitingOnProvider } from '../modules/orders/service.js';
import { sealer } from '../common/crypto.js';
import { AppError, Conflict } from '../common/errors.js';
import { redeliver } from '../modules/deliveries/service.js';
import { applyDefinitions, readDefinitionsFile } from '../modules/flags/definitions.js';
import { Doorbell, type SandboxDoors } from '../services.js';
import { POSTGRES_BACKUPS, backupDatabase, restoreDatabase } from '../db/backup.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import fs from 'node:fs';
import path from 'node:path';

export const USAGE = `usage: npm run cli -- <command> [--json]
  start                                   run the service (what npm start does)
  migrate                                 apply pending database migrations
  partners create --name N [--scopes a,b] create a partner; prints its client_id and client_secret once
  providers add --source S --kind pos|dsp|event_provider --base-url URL [--name "Display Name"]
      [--client-id ID --client-secret S --webhook-secret S --connection-notices
       --notification-scope menu.publish_success,menu.publish_failure --order-updates --markup-line
       --path operation=/path ...]
                                          register (or update) a provider
  providers list                          the registered providers
  providers remove --source S             delete a registration (refused while an open order waits on it)
  flags define --file F                   load flag and segment definitions (YAML or JSON, as FLAGS_FILE)
  flags define --partner P --flag K [--variations JSON] [--on N --off N --fallthrough N]
      [--disabled] [--segments a,b]       define (or redefine) one flag
  flags define --partner P --segment K    define a segment
  deliveries list [--status dead|pending|delivered]
                                          outbox messages (default: the dead ones)
  deliveries redeliver ID                 send a dead message again (same idempotency key)
  backup --to FILE                        a consistent copy of the SQLite database, taken while the service runs
  restore --from FILE                     put a backup in place of a stopped service's database
  certify pos (--source S | --base-url URL --client-id ID --client-secret SECRET [--webhook-secret W]
      [--path operation=/path ...]) [--location ID] [--redirect-uri URL --code CODE]
      [--wait-webhook SECONDS [--listen-port N]] [--json] [--junit FILE] [--strict]
  certify dsp (--source S | --base-url URL --client-id ID --client-secret SECRET --webhook-secret W
      [--path operation=/path ...]) [--location STORE_ID] [--redirect-uri URL --code CODE]
      [--wait-webhook SECONDS [--listen-port N]] [--json] [--junit FILE] [--strict]
  certify event-provider (--source S | --base-url URL --webhook-secret W [--path events=/path])
      [--wait-webhook SECONDS [--listen-port N]] [--json] [--junit FILE] [--strict]
                                          check a POS's, a DSP's or an event provider's server
                                          against its guide, rule by rule (--strict: a check
                                          not run fails too)
  demo                                    walk the whole onboarding against the sandbox, step by step
scopes: ${SCOPES.join(', ')}`;

export class UsageError extends Error {}

// The server, the sandbox peers, the demo and the conformance kit are imported by the commands
// that run them: loading the server's modules costs about a second of CPU, which a command that
// only works on the database (partners, providers, flags, backups) has no use for.
const certifyKit = async () => {
  const kit = await import('../certify/cli.js');
  /** The kit's usage mistakes are the command line's. */
  const usage = (error: unknown): never => {
    throw error instanceof kit.CertifyUsage ? new UsageError(error.message) : error;
  };
  return { ...kit, usage };
};

/** With the sandbox, a demo partner: made at the first start (and again for a database that no
 * longer knows it), its credentials kept in DATA_DIR/demo-partner.json and printed at every
 * start with where they are kept, as the front page says. */
async function demoPartner(file: string, db: Db): Promise<{ client_id: string; client_secret: string }> {
  if (fs.existsSync(file)) {
    const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as { client_id: string; client_secret: string };
    if (await db.partner.findUnique({ where: { clientId: kept.client_id }, select: { id: true } })) return kept;
  }
  const made = toWire(await createPartner(db, { name: 'Demo Partner' })) as { client_id: string; client_secret: string };
  fs.writeFileSync(file, JSON.stringify(made, null, 2), { mode: 0o600 });
  return made;
}

/** The banner: every address as its clients take it, the sandbox peers and the demo partner. */
async function announce(url: string, db: Db, sandbox?: SandboxDoors): Promise<void> {
  // Each address as its clients take it: an OFREP provider's baseUrl is the origin (it adds
  // /ofrep/v1 itself), an OAuth client configured by discovery takes the issuer.
  const lines = [
    `\n  GraphQL:        ${url}/graphql   (GraphiQL in a browser; graphql-ws at ws${url.slice(4)}/graphql)`,
    `  REST:           ${url}/v1   (reference: ${url}/docs, OpenAPI 3.1: ${url}/v1/openapi.json)`,
    `  OAuth issuer:   ${url}   (token: ${url}/v1/oauth/token)`,
    `  Dashboard:      ${url}/dashboard`,
    `  OFREP baseUrl:  ${url}`,
    `  Operations:     ${url}/health   ${url}/ready   ${url}/metrics`,
  ];
  if (sandbox) {
    const demo = await demoPartner(sandbox.demoPartnerFile, db);
    lines.push(
      `  Sandbox POS and DSP:     ${sandbox.pos}   (providers sandbox-pos and sandbox-dsp; controls under /v1/_sandbox/)`,
      `  Sandbox event provider:  ${sandbox.events}   (provider sandbox-events)`,
      `  Demo partner (kept in ${sandbox.demoPartnerFile}):`,
      `    client_id:     ${demo.client_id}`,
      `    client_secret: ${demo.client_secret}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

function print(json: boolean, value: Record<string, unknown>, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
}

/** What every handler is given: the parsed command line, and (for those on the service's data)
 * its configuration and log. */
type Invocation = {
  values: Values;
  positionals: string[];
  sub: string | undefined;
  json: boolean;
  url: string;
};
type OnData = Invocation & { config: Config; log: ReturnType<typeof createLogger> };
type Values = ReturnType<typeof parse>['values'];

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      name: { type: 'string' },
      scopes: { type: 'string' },
      source: { type: 'string' },
      kind: { type: 'string' },
      'base-url': { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'connection-notices': { type: 'boolean' },
      'order-updates': { type: 'boolean' },
      'markup-line': { type: 'boolean' },
      'notification-scope': { type: 'string' },
      path: { type: 'string', multiple: true },
      file: { type: 'string' },
      partner: { type: 'string' },
      flag: { type: 'string' },
      segment: { type: 'string' },
      variations: { type: 'string' },
      on: { type: 'string' },
      off: { type: 'string' },
      fallthrough: { type: 'string' },
      disabled: { type: 'boolean' },
      segments: { type: 'string' },
      status: { type: 'string' },
      to: { type: 'string' },
      from: { type: 'string' },
      'redirect-uri': { type: 'string' },
      code: { type: 'string' },
      'wait-webhook': { type: 'string' },
      'listen-port': { type: 'string' },
      location: { type: 'string' },
      strict: { type: 'boolean' },
      junit: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

async function backupOrRestore(c: Invocation): Promise<void> {
  const { values, positionals, json, url } = c;
  if (providerOf(url) === 'postgresql') throw new Error(POSTGRES_BACKUPS);
  const backup = positionals[0] === 'backup';
  const file = backup ? values.to : values.from;
  if (!file) throw new UsageError(backup ? 'backup needs --to FILE' : 'restore needs --from FILE');
  const database = sqliteFile(url);
  const done = backup ? await backupDatabase(database, path.resolve(file)) : restoreDatabase(database, path.resolve(file));
  print(
    json,
    { [backup ? 'to' : 'from']: path.resolve(file), database, ...done },
    backup
      ? `backed up ${database} to ${path.resolve(file)} (${done.bytes} bytes); keep DATA_DIR's keys with it`
      : `restored ${database} from ${path.resolve(file)} (${done.bytes} bytes); start the service: pending migrations are applied then`,
  );
}

async function certifyByFlags(c: Invocation): Promise<void> {
  const { values, sub } = c;
  const { providerToCertify, certify, usage } = await certifyKit();
  const provider = await providerToCertify(sub ?? '', values).catch(usage);
  process.exitCode = await certify(sub!, provider, values, Number(process.env.PROVIDER_TIMEOUT_MS ?? 10_000)).catch(usage);
}

async function start(c: OnData): Promise<void> {
  const { config, log } = c;
  // Without the sandbox the service is for real partners: its keys must be the operator's own,
  // not ones it made up into DATA_DIR, unless the operator says so.
  if (!config.sandbox && config.generatedKeys && !config.allowGeneratedKeys) {
    throw new Error(
      'SANDBOX=off but SIGNING_KEY and ENCRYPTION_KEY are not both set: set each to a secret of at least 32 characters (e.g. `openssl rand -base64 32`), or ALLOW_GENERATED_KEYS=true to use the keys generated into DATA_DIR',
    );
  }
  const { startService } = await import('../app/service.js');
  const service = await startService(config, log);
  const peers = config.sandbox ? await (await import('../sandbox/register.js')).startSandboxPeers(service.services) : undefined;
  log.info(
    {
      url: service.url,
      graphql: `${service.url}/graphql`,
      database: config.databaseUrl.startsWith('file:') ? 'sqlite' : 'postgresql',
      sandboxPos: peers?.pos.url,
    },
    'service started',
  );
  if (peers)
    service.services.sandbox = {
      pos: peers.pos.url,
      events: peers.events.url,
      demoPartnerFile: path.resolve(config.dataDir, 'demo-partner.json'),
    };
  await announce(service.url, service.services.db, service.services.sandbox);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: draining in-flight requests');
    await service.close();
    await peers?.close();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

async function certifyRegistered(c: OnData): Promise<void> {
  const { values, sub, config, log } = c;
  const { providerToCertify, certify, usage } = await certifyKit();
  const db = await prepareDatabase(config, log);
  try {
    const provider = await providerToCertify(sub ?? '', values, { db, sealer: sealer(config.encryptionKey) }).catch(usage);
    process.exitCode = await certify(sub!, provider, values, config.providerTimeoutMs).catch(usage);
  } finally {
    await db.$disconnect();
  }
}

async function migrate(c: OnData): Promise<void> {
  const { json, config } = c;
  const applied = await applyPendingMigrations(config.databaseUrl);
  print(json, { applied }, applied.length ? `applied: ${applied.join(', ')}` : 'no pending migrations');
}

async function createPartnerCommand(c: OnData): Promise<void> {
  const { values, json, config, log } = c;
  if (!values.name?.trim()) throw new UsageError('partners create needs --name');
  const scopes =
    values.scopes
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) throw new UsageError(`unknown scopes: ${unknown.join(', ')}`);
  const db = await prepareDatabase(config, log);
  try {
    const partner = await createPartner(db, { name: values.name.trim(), scopes: scopes.filter(isScope) });
    print(
      json,
      toWire(partner) as Record<string, unknown>,
      `partner ${partner.partnerId} created\nclient_id:     ${partner.clientId}\nclient_secret: ${partner.clientSecret}\n(the secret is shown once; only its hash is stored)\nscopes:        ${partner.scopes.join(', ')}`,
    );
  } finally {
    await db.$disconnect();
  }
}

async function providers(c: OnData): Promise<void> {
  const { values, sub, json, config, log } = c;
  const db = await prepareDatabase(config, log);
  const services = { db, sealer: sealer(config.encryptionKey) };
  try {
    if (sub === 'list') {
      const providers = await listProviders(services);
      print(
        json,
        { providers },
        providers.map((p) => `${p.source}\t${p.kind}\t${p.name ?? ''}\t${p.base_url}`).join('\n') || 'no providers',
      );
      return;
    }
    if (sub === 'remove') {
      const source = values.source;
      if (!source) throw new UsageError('providers remove needs --source');
      if (!(await findProvider(services, source))) throw new UsageError(`no provider ${source} is registered (providers list shows them)`);
      const waiting = await ordersWaitingOnProvider(services, source);
      if (waiting)
        throw new Conflict(
          `${source} is not removed: ${waiting} open order${waiting === 1 ? '' : 's'} wait${waiting === 1 ? 's' : ''} on it (as their DSP, POS or event provider); remove it once they are completed or canceled`,
        );
      const { organizations } = await deleteProvider(services, source);
      print(
        json,
        { removed: source, organizations_released: organizations },
        `provider ${source} removed${organizations ? `; ${organizations} organization${organizations === 1 ? '' : 's'} that named it as event provider now use the deployment's` : ''}`,
      );
      return;
    }
    if (!values.source || !values.kind || !values['base-url']) throw new UsageError('providers add needs --source, --kind and --base-url');
    const paths = Object.fromEntries((values.path ?? []).map((p) => p.split('=') as [string, string]));
    const saved = await saveProvider(services, {
      source: values.source,
      kind: values.kind as ProviderInput['kind'],
      base_url: values['base-url'],
      name: values.name,
      paths,
      client_id: values['client-id'],
      client_secret: values['client-secret'],
      webhook_secret: values['webhook-secret'],
      connection_notices: values['connection-notices'],
      notification_scope: values['notification-scope']?.split(',').filter(Boolean),
      order_updates: values['order-updates'],
      markup_line: values['markup-line'],
    }).catch((error: unknown) => {
      throw error instanceof AppError ? new UsageError(error.message) : error;
    });
    print(json, saved, `provider ${saved.source} (${saved.kind}) at ${saved.base_url}`);
  } finally {
    await db.$disconnect();
  }
}

async function defineFlags(c: OnData): Promise<void> {
  const { values, json, config, log } = c;
  const number = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  let document: unknown;
  if (values.file) document = await readDefinitionsFile(values.file);
  else if (values.flag) {
    let variations: unknown;
    try {
      variations = values.variations ? JSON.parse(values.variations) : undefined;
    } catch {
      throw new UsageError('--variations must be a JSON array');
    }
    document = {
      flags: [
        {
          partner: values.partner,
          key: values.flag,
          variations,
          on: number(values.on),
          off: number(values.off),
          fallthrough: number(values.fallthrough),
          enabled: !values.disabled,
          segments: values.segments?.split(',').filter(Boolean),
        },
      ],
    };
  } else if (values.segment) document = { segments: [{ partner: values.partner, key: values.segment }] };
  else throw new UsageError('flags define needs --file, --flag or --segment');
  const db = await prepareDatabase(config, log);
  try {
    const defined = await applyDefinitions(db, document).catch((error: unknown) => {
      throw error instanceof AppError ? new UsageError(error.message) : error;
    });
    print(json, defined, `defined flags: ${defined.flags.join(', ') || 'none'}; segments: ${defined.segments.join(', ') || 'none'}`);
  } finally {
    await db.$disconnect();
  }
}

async function deliveries(c: OnData): Promise<void> {
  const { values, positionals, sub, json, config, log } = c;
  const db = await prepareDatabase(config, log);
  try {
    if (sub === 'list') {
      const rows = await db.outboxMessage.findMany({
        where: { status: values.status ?? 'dead' },
        orderBy: { createdAt: 'desc' },
        take: 200,
      });
      const deliveries = rows.map((m) => ({
        id: m.id,
        kind: m.kind,
        source: m.source,
        status: m.status,
        attempts: m.attempts,
        last_status: m.lastStatus,
        last_error: m.lastError,
        created_at: m.createdAt.getTime(),
      }));
      print(
        json,
        { deliveries },
        deliveries.map((d) => `${d.id}\t${d.kind}\t${d.source}\t${d.status}\t${d.attempts}\t${d.last_error ?? ''}`).join('\n') || 'none',
      );
      return;
    }
    const id = positionals[2];
    if (!id) throw new UsageError('deliveries redeliver needs the delivery id');
    // The running service's worker polls the outbox, so it picks this up within a second.
    await redeliver({ db, delivery: new Doorbell() }, id).catch((error: unknown) => {
      throw error instanceof AppError ? new UsageError(error.message) : error;
    });
    print(json, { id, status: 'pending' }, `delivery ${id} is queued again`);
  } finally {
    await db.$disconnect();
  }
}

/** Commands that need no database of ours: a backup names its own; a provider certified by flags needs none. */
const WITHOUT_DATA: Record<string, (c: Invocation) => boolean> = {
  backup: () => true,
  restore: () => true,
  certify: (c) => !c.values.source,
};
const PLAIN: Record<string, (c: Invocation) => Promise<void>> = {
  backup: backupOrRestore,
  restore: backupOrRestore,
  certify: certifyByFlags,
};
/** Commands on the service's data (start, migrate and demo may make it). */
const ON_DATA: Record<string, (c: OnData) => Promise<void>> = {
  start,
  certify: certifyRegistered,
  migrate,
  'partners create': createPartnerCommand,
  'providers add': providers,
  'providers list': providers,
  'providers remove': providers,
  'flags define': defineFlags,
  'deliveries list': deliveries,
  'deliveries redeliver': deliveries,
};
const MAKES_DATA = new Set(['start', 'migrate', 'demo']);

export async function runCli(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv);
  const [command, sub] = positionals;
  const json = values.json ?? false;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command === 'demo') return (await import('./demo.js')).runDemo();
  const url = databaseUrl(process.env);
  const invocation: Invocation = { values, positionals, sub, json, url };
  if (WITHOUT_DATA[command]?.(invocation)) return PLAIN[command]!(invocation);
  const handler = ON_DATA[command] ?? ON_DATA[`${command} ${sub}`];
  if (!handler) throw new UsageError(`unknown command: ${positionals.join(' ')}`);
  // Commands that act on the service's data need its database: a DATA_DIR that holds none is a
  // mistake to point out, not a new empty database (loadConfig would make keys there, too).
  if (!MAKES_DATA.has(command) && providerOf(url) === 'sqlite' && !fs.existsSync(sqliteFile(url))) {
    throw new UsageError(
      `no database at ${sqliteFile(url)} (DATA_DIR=${process.env.DATA_DIR ?? './data'}): point DATA_DIR (or DATABASE_URL) at the service's data, or run \`npm start\` or \`npm run cli -- migrate\` there first`,
    );
  }
  const config = loadConfig();
  // Commands that print JSON keep stdout clean: logs go to stderr.
  const log = createLogger({ logLevel: json ? 'warn' : config.logLevel });
  await handler({ ...invocation, config, log });
}
