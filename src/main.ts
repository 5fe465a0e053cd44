// The command line: `npm start` and `npm run cli -- <command>`. With --json a command prints
// one JSON object on stdout and nothing else.
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { createLogger, prepareDatabase, startService } from './service.js';
import { applyPendingMigrations } from './db/schema-engine.js';
import { createPartner } from './modules/auth/service.js';
import { SCOPES, isScope } from './modules/auth/scopes.js';

const USAGE = `usage: npm run cli -- <command> [--json]
  start                                   run the service (what npm start does)
  migrate                                 apply pending database migrations
  partners create --name N [--scopes a,b] create a partner; prints its client_id and client_secret once
scopes: ${SCOPES.join(', ')}`;

class UsageError extends Error {}

function print(json: boolean, value: Record<string, unknown>, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      name: { type: 'string' },
      scopes: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, sub] = positionals;
  const json = values.json ?? false;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  // Commands that print JSON keep stdout clean: logs go to stderr.
  const log = createLogger({ logLevel: json ? 'warn' : config.logLevel });

  if (command === 'start') {
    const service = await startService(config, log);
    log.info({ url: service.url, graphql: `${service.url}/graphql`, database: config.databaseUrl.startsWith('file:') ? 'sqlite' : 'postgresql' }, 'service started');
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'stopping: draining in-flight requests');
      await service.close();
      log.info('stopped');
      process.exit(0);
    };
    process.on('SIGTERM', () => void stop('SIGTERM'));
    process.on('SIGINT', () => void stop('SIGINT'));
    return;
  }

  if (command === 'migrate') {
    const applied = await applyPendingMigrations(config.databaseUrl);
    print(json, { applied }, applied.length ? `applied: ${applied.join(', ')}` : 'no pending migrations');
    return;
  }

  if (command === 'partners' && sub === 'create') {
    if (!values.name?.trim()) throw new UsageError('partners create needs --name');
    const scopes = values.scopes?.split(',').map((s) => s.trim()).filter(Boolean) ?? [];
    const unknown = scopes.filter((s) => !isScope(s));
    if (unknown.length) throw new UsageError(`unknown scopes: ${unknown.join(', ')}`);
    const db = await prepareDatabase(config, log);
    try {
      const partner = await createPartner(db, { name: values.name.trim(), scopes: scopes.filter(isScope) });
      print(
        json,
        partner,
        `partner ${partner.partner_id} created\nclient_id:     ${partner.client_id}\nclient_secret: ${partner.client_secret}\n(the secret is shown once; only its hash is stored)\nscopes:        ${partner.scopes.join(', ')}`,
      );
    } finally {
      await db.$disconnect();
    }
    return;
  }
  throw new UsageError(`unknown command: ${positionals.join(' ')}`);
}

run(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  else process.stderr.write(`${message}\n${error instanceof UsageError ? `${USAGE}\n` : ''}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
