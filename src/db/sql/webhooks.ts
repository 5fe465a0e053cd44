// The webhook intake's statements (webhooks/intake.ts).
import type { Statements } from '../statements.js';

/** A webhook of this sender with these very bytes, taken since then (a sender's retry of one
 * it sent without an id). */
export async function sameBytesSince(sql: Statements, source: string, bodyHash: string, since: Date): Promise<{ id: string } | undefined> {
  const [row] = await sql.all<{ id: string }>(
    'SELECT "id" FROM "WebhookEvent" WHERE "source" = ? AND "bodyHash" = ? AND "createdAt" > ? ORDER BY "createdAt" DESC LIMIT 1',
    [source, bodyHash, since],
  );
  return row;
}

/** The answer a webhook of these very bytes got since then (./../../webhooks/intake.ts, replays). */
export async function answeredSince(sql: Statements, digest: string, since: Date): Promise<{ answer: string } | undefined> {
  const [row] = await sql.all<{ answer: string }>('SELECT "answer" FROM "WebhookReplay" WHERE "id" = ? AND "createdAt" > ?', [
    digest,
    since,
  ]);
  return row;
}
