// `cli certify pos|dsp|event-provider`: the provider from its registration (--source) or from
// flags, the kit's checks, and the report for people, as JSON (--json) and as JUnit XML (--junit
// FILE). Exit 0 only when every check run passes, and with --strict only when none was skipped.
import fs from 'node:fs';
import { findProvider, type ProviderInfo } from '../integrations/providers.js';
import type { Caller } from '../integrations/provider-client.js';
import { OFF } from '../telemetry/tracing.js';
import type { Services } from '../services.js';
import { junitReport, ListenerUnavailable, providerFromFlags, reportLines, startListener } from './kit.js';
import { certifyPos } from './pos.js';
import { certifyDsp } from './dsp.js';
import { certifyEventProvider } from './event-provider.js';

export type CertifyFlags = {
  source?: string;
  'base-url'?: string;
  'client-id'?: string;
  'client-secret'?: string;
  'webhook-secret'?: string;
  path?: string[];
  'redirect-uri'?: string;
  code?: string;
  'wait-webhook'?: string;
  'listen-port'?: string;
  location?: string;
  strict?: boolean;
  json?: boolean;
  junit?: string;
};

/** Each kind the kit certifies: its registration's kind, what its flags need, and its checks. */
const KINDS = {
  pos: { registered: 'pos', needs: '--client-id ID --client-secret SECRET', run: certifyPos },
  dsp: { registered: 'dsp', needs: '--client-id ID --client-secret SECRET --webhook-secret W', run: certifyDsp },
  'event-provider': { registered: 'event_provider', needs: '--webhook-secret W', run: certifyEventProvider },
} as const;
const kindOf = (kind: string) => {
  if (!(kind in KINDS)) throw new CertifyUsage('certify takes pos, dsp or event-provider');
  return KINDS[kind as keyof typeof KINDS];
};

export class CertifyUsage extends Error {}

/** The provider to certify: a registration, or the flags' (then no database is needed). */
export async function providerToCertify(
  kind: string,
  flags: CertifyFlags,
  registered?: Pick<Services, 'db' | 'sealer'>,
): Promise<ProviderInfo> {
  const { registered: wanted, needs } = kindOf(kind);
  if (flags.source) {
    const provider = registered ? await findProvider(registered, flags.source) : null;
    if (!provider) throw new CertifyUsage(`no provider ${flags.source} is registered (providers list shows them)`);
    if (provider.kind !== wanted) throw new CertifyUsage(`${flags.source} is a ${provider.kind}, not a ${wanted}`);
    return provider;
  }
  if (!flags['base-url']) throw new CertifyUsage(`certify ${kind} needs --source S, or --base-url URL with ${needs}`);
  if (kind !== 'pos' && !flags['webhook-secret'])
    throw new CertifyUsage(`certify ${kind} --base-url needs --webhook-secret W: the secret the service and your server sign with`);
  try {
    return providerFromFlags({
      source: 'certify',
      kind: wanted,
      base_url: flags['base-url'],
      paths: Object.fromEntries((flags.path ?? []).map((p) => p.split('=') as [string, string])),
      client_id: flags['client-id'],
      client_secret: flags['client-secret'],
      webhook_secret: flags['webhook-secret'],
    });
  } catch (error) {
    throw new CertifyUsage((error as Error).message);
  }
}

/** Runs the kit; resolves to the exit code. */
export async function certify(kind: string, provider: ProviderInfo, flags: CertifyFlags, timeoutMs: number): Promise<number> {
  const wait = flags['wait-webhook'] === undefined ? undefined : Number(flags['wait-webhook']);
  if (wait !== undefined && !(wait > 0)) throw new CertifyUsage('--wait-webhook takes a number of seconds');
  if (flags['redirect-uri'] && !flags.code && kind !== 'event-provider')
    throw new CertifyUsage('--redirect-uri needs --code: the code that arrived there');
  if (wait !== undefined && !provider.webhookSecret)
    throw new CertifyUsage('--wait-webhook needs --webhook-secret W: the kit checks the signature of what your server sends');
  // A fixed port lets a provider that reads its service URL once, at its start, be pointed at the kit.
  const port = flags['listen-port'] === undefined ? 0 : Number(flags['listen-port']);
  if (flags['listen-port'] !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535))
    throw new CertifyUsage('--listen-port takes a port number, 1 to 65535');
  const caller: Caller = { config: { providerTimeoutMs: timeoutMs }, tracing: OFF };
  const listener = await startListener(port).catch((error: unknown) => {
    throw error instanceof ListenerUnavailable ? new CertifyUsage(error.message) : error;
  });
  // Lines for the person go to stderr with --json, so stdout stays one JSON object.
  const say = (line: string) => (flags.json ? process.stderr : process.stdout).write(`${line}\n`);
  try {
    // A registered provider is a live one: it is told what the kit will send it before it does.
    if (flags.source)
      say(
        kind === 'event-provider'
          ? `certify --source ${flags.source}: the kit calls ${provider.baseUrl} as the service would, with a test order (its ids begin ord_certify_, its location is loc_certify); a live event provider may act on it.`
          : `certify --source ${flags.source}: the kit calls ${provider.baseUrl} as the service would, with a test order (its ids begin ord_certify_) ${kind === 'pos' ? 'and test notices to one of the locations it lists' : 'and test menus and events to one of the stores it lists'} (--location chooses); a live ${kind === 'pos' ? 'POS' : 'platform'} may act on it.`,
      );
    const options = {
      caller,
      provider,
      listener,
      redirectUri: flags['redirect-uri'],
      code: flags.code,
      waitWebhookSeconds: wait,
      location: flags.location,
      say,
    };
    const report = await kindOf(kind).run(options);
    if (flags.junit) fs.writeFileSync(flags.junit, junitReport(report));
    process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : `${reportLines(report)}\n`);
    return report.failed === 0 && !(flags.strict && report.skipped.length) ? 0 : 1;
  } finally {
    await listener.close();
  }
}
