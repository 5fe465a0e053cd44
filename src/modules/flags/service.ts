// Feature flags and segments per partner (docs/reference.md § Resources), with the semantics people know from
// LaunchDarkly and OpenFeature. A flag that is off serves its off variation (reason OFF); a flag
// that is on serves its on variation to its targets (TARGET_MATCH) and to the contexts of the
// segments it includes (SEGMENT_MATCH), and its fallthrough variation to everyone else
// (FALLTHROUGH). `enabled` in an evaluation says whether the flag is on.
import { pageSize } from '../../common/pages.js';
import type { Services } from '../../services.js';
import { isUniqueViolation, type Db } from '../../db/client.js';
import { Invalid, NotFound } from '../../common/errors.js';
import { randomId } from '../../common/ids.js';
import { assertPartnerWide, ownPartnerId } from '../access/index.js';
import type { AuthInfo } from '../../common/scopes.js';

/** The owner of the service's own flags (read through OpenFeature inside the service). */
export const SERVICE_OWNER = 'service';

export type Context = { key: string; kind: string };
export type Reason = 'TARGET_MATCH' | 'SEGMENT_MATCH' | 'FALLTHROUGH' | 'OFF';
/** `variation` is the index of the value among the flag's variations. */
export type Evaluation = { flagKey: string; value: unknown; variation: number; enabled: boolean; reason: Reason };

const KIND = /^[A-Za-z0-9._-]+$/;

export function checkContext(context: { key?: unknown; kind?: unknown }, at = 'context'): Context {
  if (typeof context.key !== 'string' || !context.key.trim()) throw new Invalid(`${at}.key must be a non-empty string`);
  const kind = context.kind ?? 'user';
  if (typeof kind !== 'string' || !KIND.test(kind)) throw new Invalid(`${at}.kind must match [A-Za-z0-9._-]+`);
  if (kind === 'kind' || kind === 'multi') throw new Invalid(`${at}.kind may not be "kind" or "multi"`);
  return { key: context.key, kind };
}

function checkContexts(contexts: unknown): Context[] {
  if (!Array.isArray(contexts) || !contexts.length) throw new Invalid('contexts must be a non-empty array of {key, kind}');
  return contexts.map((c, i) => checkContext((c ?? {}) as Context, `contexts[${i}]`));
}

/** `partner_id` in the query: required where docs/reference.md says so, and only ever the caller itself. */
export function partnerOf(auth: AuthInfo, partnerId: string | null | undefined, required = true): string {
  if (!partnerId && required) throw new Invalid('partner_id is required');
  // Flags and segments are the partner's, over all its organizations: not an organization token's.
  assertPartnerWide(auth, "use the partner's flags");
  return ownPartnerId(auth, partnerId);
}

async function findFlag(db: Db, owner: string, key: string) {
  const flag = await db.flag.findUnique({ where: { partnerId_key: { partnerId: owner, key } } });
  if (!flag) throw new NotFound(`flag ${key} not found`);
  return flag;
}

async function findSegment(db: Db, owner: string, key: string) {
  const segment = await db.segment.findUnique({ where: { partnerId_key: { partnerId: owner, key } } });
  if (!segment) throw new NotFound(`segment ${key} not found`);
  return segment;
}

const identity = (c: Context) => `${c.kind}\u0000${c.key}`;

/** The wanted contexts not already present, each once: adding a context twice is harmless. */
function notYetIn(existing: Context[], wanted: Context[]): Context[] {
  const have = new Set(existing.map(identity));
  return [...new Map(wanted.map((c) => [identity(c), c])).values()].filter((c) => !have.has(identity(c)));
}

/** Adds the wanted contexts that are not there yet. Another request adding some of the same at
 * the same moment makes the unique index refuse this batch whole: look again and add the rest. */
async function addMissing(
  wanted: Context[],
  existing: () => Promise<Context[]>,
  create: (fresh: Context[]) => Promise<unknown>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const fresh = notYetIn(await existing(), wanted);
    if (!fresh.length) return;
    try {
      await create(fresh);
      return;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

const byKindAndKey = (a: Context, b: Context) => a.kind.localeCompare(b.kind) || a.key.localeCompare(b.key);

/** A flag's targets or a segment's members: the same three acts on either table. */
type ContextSet = {
  read: () => Promise<Context[]>;
  add: (fresh: Context[]) => Promise<unknown>;
  remove: (gone: Context[]) => Promise<unknown>;
};

async function changeContexts(set: ContextSet, wanted: Context[], change: 'add' | 'remove'): Promise<Context[]> {
  if (change === 'add') await addMissing(wanted, set.read, set.add);
  else await set.remove(wanted);
  return (await set.read()).sort(byKindAndKey);
}

const matching = (contexts: Context[]) => contexts.map((c) => ({ kind: c.kind, key: c.key }));

export async function changeFlagTargets(services: Services, owner: string, flagKey: string, contexts: unknown, change: 'add' | 'remove') {
  const wanted = checkContexts(contexts);
  const { db } = services;
  const flagId = (await findFlag(db, owner, flagKey)).id;
  const targets: ContextSet = {
    read: () => db.flagTarget.findMany({ where: { flagId }, select: { kind: true, key: true } }),
    add: (fresh) => db.flagTarget.createMany({ data: fresh.map((c) => ({ id: randomId(), flagId, ...c })) }),
    remove: (gone) => db.flagTarget.deleteMany({ where: { flagId, OR: matching(gone) } }),
  };
  return { flagKey, targets: await changeContexts(targets, wanted, change) };
}

export async function changeSegmentContexts(
  services: Services,
  owner: string,
  segmentKey: string,
  contexts: unknown,
  change: 'add' | 'remove',
) {
  const wanted = checkContexts(contexts);
  const { db } = services;
  const segmentId = (await findSegment(db, owner, segmentKey)).id;
  const members: ContextSet = {
    read: () => db.segmentMember.findMany({ where: { segmentId }, select: { kind: true, key: true } }),
    add: (fresh) => db.segmentMember.createMany({ data: fresh.map((c) => ({ id: randomId(), segmentId, ...c })) }),
    remove: (gone) => db.segmentMember.deleteMany({ where: { segmentId, OR: matching(gone) } }),
  };
  return { segmentKey, targets: await changeContexts(members, wanted, change) };
}

/** `limit` arrives as a string: a whole number from 1 to 50; 20 when omitted. */
export const parseLimit = (limit: string | null | undefined): number => pageSize(limit, { name: 'limit', default: 20, max: 50 });

export type SearchResult = { key: string; kind: string; flags: string[]; segments: string[] };

/** Contexts in the partner's flags' targets and segments: `q` is a case-insensitive substring
 * of the key (the same on SQLite and PostgreSQL, hence compared here). */
export async function searchContexts(
  services: Services,
  owner: string,
  input: { q?: string | null; kind?: string | null; limit?: string | null },
) {
  const limit = parseLimit(input.limit);
  if (input.kind) checkContext({ key: 'x', kind: input.kind }, 'kind');
  const kindFilter = input.kind ? { kind: input.kind } : {};
  const [targets, members] = await Promise.all([
    services.db.flagTarget.findMany({
      where: { ...kindFilter, flag: { partnerId: owner } },
      select: { kind: true, key: true, flag: { select: { key: true } } },
    }),
    services.db.segmentMember.findMany({
      where: { ...kindFilter, segment: { partnerId: owner } },
      select: { kind: true, key: true, segment: { select: { key: true } } },
    }),
  ]);
  const q = input.q?.toLowerCase() ?? '';
  const found = new Map<string, SearchResult>();
  const entry = (c: Context) => {
    const k = identity(c);
    let result = found.get(k);
    if (!result) {
      result = { key: c.key, kind: c.kind, flags: [], segments: [] };
      found.set(k, result);
    }
    return result;
  };
  for (const t of targets) if (t.key.toLowerCase().includes(q)) entry(t).flags.push(t.flag.key);
  for (const m of members) if (m.key.toLowerCase().includes(q)) entry(m).segments.push(m.segment.key);
  const contexts = [...found.values()].sort(byKindAndKey).slice(0, limit);
  for (const c of contexts) {
    c.flags.sort();
    c.segments.sort();
  }
  return { contexts };
}

export async function evaluateFlag(
  db: Db,
  owner: string,
  flagKey: string,
  context: { key?: unknown; kind?: unknown },
): Promise<Evaluation> {
  const ctx = checkContext(context);
  const flag = await db.flag.findUnique({
    where: { partnerId_key: { partnerId: owner, key: flagKey } },
    include: {
      targets: { where: { kind: ctx.kind, key: ctx.key }, take: 1 },
      segments: { where: { segment: { members: { some: { kind: ctx.kind, key: ctx.key } } } }, take: 1 },
    },
  });
  if (!flag) throw new NotFound(`flag ${flagKey} not found`);
  const variations = JSON.parse(flag.variations) as unknown[];
  const serve = (index: number, reason: Reason): Evaluation => ({
    flagKey,
    value: variations[index] ?? null,
    variation: index,
    enabled: flag.enabled,
    reason,
  });
  if (!flag.enabled) return serve(flag.offVariation, 'OFF');
  if (flag.targets.length) return serve(flag.onVariation, 'TARGET_MATCH');
  if (flag.segments.length) return serve(flag.onVariation, 'SEGMENT_MATCH');
  return serve(flag.fallthroughVariation, 'FALLTHROUGH');
}
