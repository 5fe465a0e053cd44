// Flag and segment definitions from a document that operators keep in version control
// (FLAGS_FILE, loaded at start-up) or give to `npm run cli -- flags define`. Definitions set a
// flag's variations, switch and segments; targets and segment contexts are the partners' to
// manage through the API, and a reload leaves them as they are.
import fs from 'node:fs';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { Invalid } from '../../common/errors.js';
import { randomId } from '../../common/ids.js';
import { SERVICE_OWNER, checkContext } from './service.js';

const key = z.string().regex(/^[A-Za-z0-9._-]+$/, 'keys are letters, digits, ".", "_" or "-"');
const owner = z.string().min(1).default(SERVICE_OWNER);

const flagSchema = z
  .object({
    partner: owner,
    key,
    enabled: z.boolean().default(true),
    variations: z.array(z.unknown()).min(2, 'a flag needs at least an "on" and an "off" variation').default([true, false]),
    on: z.number().int().min(0).default(0),
    off: z.number().int().min(0).default(1),
    fallthrough: z.number().int().min(0).default(1),
    segments: z.array(key).default([]),
    /** Contexts served the on variation; added to those managed through the API, never removing any. */
    targets: z.array(z.object({ key: z.string().min(1), kind: z.string().default('user') })).default([]),
  })
  .refine((f) => [f.on, f.off, f.fallthrough].every((i) => i < f.variations.length), 'on, off and fallthrough must index the variations');

export const definitionsSchema = z.object({
  flags: z.array(flagSchema).default([]),
  segments: z
    .array(
      z.object({
        partner: owner,
        key,
        included: z.array(z.object({ key: z.string().min(1), kind: z.string().default('user') })).default([]),
      }),
    )
    .default([]),
});
export type Definitions = z.input<typeof definitionsSchema>;

export function parseDefinitions(document: unknown): z.output<typeof definitionsSchema> {
  const parsed = definitionsSchema.safeParse(document ?? {});
  if (!parsed.success)
    throw new Invalid(`flag definitions: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** Upserts the segments, then the flags with exactly the segments they name. */
export async function applyDefinitions(db: Db, document: unknown) {
  const defs = parseDefinitions(document);
  const segmentIds = new Map<string, string>();
  for (const s of defs.segments) {
    const row = await db.segment.upsert({
      where: { partnerId_key: { partnerId: s.partner, key: s.key } },
      create: { id: randomId(), partnerId: s.partner, key: s.key },
      update: {},
    });
    segmentIds.set(`${s.partner}/${s.key}`, row.id);
    for (const c of s.included.map((c, i) => checkContext(c, `segments.${s.key}.included[${i}]`))) {
      await db.segmentMember.upsert({
        where: { segmentId_kind_key: { segmentId: row.id, kind: c.kind, key: c.key } },
        create: { id: randomId(), segmentId: row.id, ...c },
        update: {},
      });
    }
  }
  for (const f of defs.flags) {
    const segments = await Promise.all(
      f.segments.map(async (k) => {
        const known =
          segmentIds.get(`${f.partner}/${k}`) ??
          (await db.segment.findUnique({ where: { partnerId_key: { partnerId: f.partner, key: k } } }))?.id;
        if (!known) throw new Invalid(`flag ${f.key} includes segment ${k}, which ${f.partner} has not defined`);
        return known;
      }),
    );
    const data = {
      variations: JSON.stringify(f.variations),
      enabled: f.enabled,
      onVariation: f.on,
      offVariation: f.off,
      fallthroughVariation: f.fallthrough,
    };
    await db.$transaction(async (tx) => {
      const flag = await tx.flag.upsert({
        where: { partnerId_key: { partnerId: f.partner, key: f.key } },
        create: { id: randomId(), partnerId: f.partner, key: f.key, ...data },
        update: data,
      });
      await tx.flagSegment.deleteMany({ where: { flagId: flag.id } });
      if (segments.length) await tx.flagSegment.createMany({ data: segments.map((segmentId) => ({ flagId: flag.id, segmentId })) });
      for (const c of f.targets.map((c, i) => checkContext(c, `flags.${f.key}.targets[${i}]`))) {
        await tx.flagTarget.upsert({
          where: { flagId_kind_key: { flagId: flag.id, kind: c.kind, key: c.key } },
          create: { id: randomId(), flagId: flag.id, ...c },
          update: {},
        });
      }
    });
  }
  return { flags: defs.flags.map((f) => `${f.partner}/${f.key}`), segments: defs.segments.map((s) => `${s.partner}/${s.key}`) };
}

/** A YAML or JSON file (YAML is a superset of JSON). Its parser is loaded when a file is read:
 * most services have none. */
export async function readDefinitionsFile(file: string): Promise<unknown> {
  const { parse } = await import('yaml');
  return parse(fs.readFileSync(file, 'utf8')) as unknown;
}
