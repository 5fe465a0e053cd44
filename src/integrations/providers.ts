// Provider registrations: each POS, DSP and event provider we talk to (docs/architecture.md).
import type { Services } from '../services.js';
import { displayName } from '../common/input.js';
import { Invalid, NotFound } from '../common/errors.js';
import { newId } from '../common/ids.js';
import type { Db } from '../db/client.js';
import { keptPer } from '../common/kept.js';

export const PROVIDER_KINDS = ['pos', 'dsp', 'event_provider'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];
/** The kind of a dispatch company's registration. */
export const EVENT_PROVIDER: ProviderKind = 'event_provider';

/** docs/reference.md § POS interface, and the DSP menu intake; a registration may override any. */
export const DEFAULT_PATHS = {
  authorize: '/v1/authorize',
  token: '/v1/token',
  locations: '/v1/locations',
  catalog: '/v1/catalog',
  orders: '/v1/orders',
  connect: '/v1/locations/connect',
  disconnect: '/v1/locations/disconnect',
  notifications: '/v1/notifications',
  menus: '/v1/menus',
  events: '/v1/events',
} as const;
export type Operation = keyof typeof DEFAULT_PATHS;

export type ProviderInput = {
  source: string;
  kind: ProviderKind;
  /** What merchants call it ("Uber Eats"): the dashboard names it so. Left out: kept as it was. */
  name?: string;
  base_url: string;
  paths?: Partial<Record<Operation, string>>;
  client_id?: string;
  client_secret?: string;
  webhook_secret?: string;
  connection_notices?: boolean;
  notification_scope?: string[];
  order_updates?: boolean;
  markup_line?: boolean;
};

/** The event notifications a POS may ask for (docs/reference.md § POS interface): a menu publish's success and failure. */
export const NOTIFICATION_TYPES = ['menu.publish_success', 'menu.publish_failure'] as const;

/** A registration with its secrets opened, for the code that calls the provider. */
export type ProviderInfo = {
  source: string;
  kind: ProviderKind;
  baseUrl: string;
  paths: Record<Operation, string>;
  clientId: string | null;
  clientSecret: string | null;
  webhookSecret: string | null;
  connectionNotices: boolean;
  notificationScope: string[];
  /** What merchants call it (its source when it was given no name). */
  name: string;
  /** It takes order.updated on its order endpoint (a DSP's cancellation). */
  orderUpdates: boolean;
  /** A POS that takes a platform's markup as a line of its own, its items at the catalog's prices. */
  markupLine: boolean;
  /** How its token endpoint takes requests: JSON, or form-encoded once it refused JSON (415). */
  tokenFormat: 'json' | 'form';
};

export function validateProvider(input: ProviderInput): void {
  if (!/^[a-z0-9][a-z0-9._-]{0,62}$/.test(input.source))
    throw new Invalid('source must be a slug: lower-case letters, digits, ".", "_" or "-"');
  if (!PROVIDER_KINDS.includes(input.kind)) throw new Invalid(`kind must be one of ${PROVIDER_KINDS.join(', ')}`);
  if (input.name !== undefined) displayName(input.name, 'name');
  if (input.name !== undefined && input.name.trim().length > 60) throw new Invalid('name must be 1 to 60 characters');
  let url: URL;
  try {
    url = new URL(input.base_url);
  } catch {
    throw new Invalid('base_url must be an absolute http(s) URL');
  }
  if (!['http:', 'https:'].includes(url.protocol)) throw new Invalid('base_url must be an absolute http(s) URL');
  // The interface's paths (/v1/orders, ...) are relative to the origin: a base_url ending in /v1
  // would call /v1/v1/orders.
  if (/\/v1\/?$/.test(url.pathname))
    throw new Invalid('base_url must not end in /v1: give the origin (or prefix) the paths /v1/... are relative to');
  const unknownTypes = (input.notification_scope ?? []).filter((type) => !NOTIFICATION_TYPES.includes(type as never));
  if (unknownTypes.length)
    throw new Invalid(`notification_scope takes ${NOTIFICATION_TYPES.join(' and ')}; not ${unknownTypes.join(', ')}`);
  for (const [operation, path] of Object.entries(input.paths ?? {})) {
    if (!(operation in DEFAULT_PATHS)) throw new Invalid(`unknown operation in paths: ${operation}`);
    if (typeof path !== 'string' || !path.startsWith('/')) throw new Invalid(`paths.${operation} must start with /`);
  }
}

/** Adds a provider, or updates the one with the same source. */
export async function saveProvider(services: Pick<Services, 'db' | 'sealer'>, input: ProviderInput) {
  validateProvider(input);
  const seal = (value: string | undefined) => (value === undefined ? undefined : services.sealer.seal(value));
  const data = {
    kind: input.kind,
    name: input.name?.trim(),
    baseUrl: input.base_url.replace(/\/$/, ''),
    paths: JSON.stringify(input.paths ?? {}),
    clientId: input.client_id,
    clientSecretEnc: seal(input.client_secret),
    webhookSecretEnc: seal(input.webhook_secret),
    connectionNotices: input.connection_notices,
    notificationScope: input.notification_scope?.join(','),
    orderUpdates: input.order_updates,
    markupLine: input.markup_line,
  };
  const provider = await services.db.provider.upsert({
    where: { source: input.source },
    create: { id: newId('prv'), source: input.source, ...data, kind: input.kind, baseUrl: data.baseUrl },
    update: data,
  });
  registrationsOf(services.db).delete(input.source);
  return { source: provider.source, kind: provider.kind as ProviderKind, name: provider.name, base_url: provider.baseUrl };
}

export async function listProviders(services: Pick<Services, 'db' | 'sealer'>) {
  const providers = await services.db.provider.findMany({ orderBy: { source: 'asc' } });
  return providers.map((p) => ({ source: p.source, kind: p.kind as ProviderKind, name: p.name, base_url: p.baseUrl }));
}

/** Every registration's source and what merchants call it (its source when it was given no name). */
export async function providerNames(services: Pick<Services, 'db'>): Promise<{ source: string; kind: ProviderKind; name: string }[]> {
  const providers = await services.db.provider.findMany({ orderBy: { source: 'asc' }, select: { source: true, kind: true, name: true } });
  return providers.map((p) => ({ source: p.source, kind: p.kind as ProviderKind, name: p.name ?? p.source }));
}

/** Registrations read in the last five seconds, per database: every webhook and every outgoing
 * call looks its provider up, and registrations change only through `providers add`. */
const registrationsOf = keptPer<Db, string, ProviderInfo>({ max: 1000, ttlMs: 5000 });

export async function findProvider(services: Pick<Services, 'db' | 'sealer'>, source: string): Promise<ProviderInfo | null> {
  const cached = registrationsOf(services.db).get(source);
  if (cached) return cached;
  const p = await services.db.provider.findUnique({ where: { source } });
  if (!p) return null;
  const open = (value: string | null) => (value === null ? null : services.sealer.open(value));
  const info: ProviderInfo = {
    source: p.source,
    kind: p.kind as ProviderKind,
    baseUrl: p.baseUrl,
    paths: { ...DEFAULT_PATHS, ...(JSON.parse(p.paths) as Partial<Record<Operation, string>>) },
    clientId: p.clientId,
    clientSecret: open(p.clientSecretEnc),
    webhookSecret: open(p.webhookSecretEnc),
    connectionNotices: p.connectionNotices,
    notificationScope: p.notificationScope.split(',').filter(Boolean),
    name: p.name ?? p.source,
    orderUpdates: p.orderUpdates,
    markupLine: p.markupLine,
    tokenFormat: p.tokenFormat === 'form' ? 'form' : 'json',
  };
  registrationsOf(services.db).set(source, info);
  return info;
}

/** The registered event providers' sources, by name. */
export async function eventProviderSources(services: Pick<Services, 'db'>): Promise<string[]> {
  const providers = await services.db.provider.findMany({
    where: { kind: 'event_provider' },
    orderBy: { source: 'asc' },
    select: { source: true },
  });
  return providers.map((p) => p.source);
}

/** Deletes a registration (the caller has checked that no open order waits on it). The
 * organizations that named it as their event provider name none after it, in the same
 * transaction; how many did is returned. Other instances stop using it within five seconds. */
export async function deleteProvider(services: Pick<Services, 'db'>, source: string): Promise<{ organizations: number }> {
  const [, released] = await services.db.$transaction([
    services.db.provider.delete({ where: { source } }),
    services.db.organization.updateMany({ where: { eventProvider: source }, data: { eventProvider: null } }),
  ]);
  registrationsOf(services.db).delete(source);
  return { organizations: released.count };
}

export async function requireProvider(services: Services, source: string, kind?: ProviderKind): Promise<ProviderInfo> {
  const provider = await findProvider(services, source);
  if (!provider || (kind && provider.kind !== kind)) throw new NotFound(`no ${kind ?? 'provider'} registered as source ${source}`);
  return provider;
}

export const providerUrl = (provider: ProviderInfo, operation: Operation): string => `${provider.baseUrl}${provider.paths[operation]}`;

/** Remembers that a provider's token endpoint takes form-encoded requests only (it answered 415
 * to JSON), so that later token calls go that way first. */
export async function rememberFormTokens(services: Pick<Services, 'db'>, source: string): Promise<void> {
  await services.db.provider.update({ where: { source }, data: { tokenFormat: 'form' } });
  registrationsOf(services.db).delete(source);
}
