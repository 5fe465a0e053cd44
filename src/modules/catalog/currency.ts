// A location's currency: its latest catalog's `currency` (docs/reference.md § Money), which its
// orders are held to. Null when that catalog names none (the catalog of docs/reference.md
// § Resources may leave it out) or names one that is not a code (its problems say so). Kept per
// catalog version, which never changes: no order reads a catalog for it.
import type { Db } from '../../db/client.js';
import { keptPer } from '../../common/kept.js';
import { onCatalog } from './thread.js';
import { storedBody } from './stored.js';

const currencyOf = keptPer<Db, string, Promise<string | null>>({ max: 500 });

/** The currency of a stored catalog version (none yet: null), read once per version on each instance. */
export function storedCurrency(db: Db, versionId: string | null): Promise<string | null> {
  if (!versionId) return Promise.resolve(null);
  return currencyOf(db).remember(versionId, async () => {
    const body = await storedBody(db, versionId);
    return body === undefined ? null : (await onCatalog('facts', body)).currency;
  });
}
