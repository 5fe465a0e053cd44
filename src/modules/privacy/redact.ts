// What of an order, as its DSP sent it (wire names), names or locates its customer, and how it
// is redacted: the order itself and every stored copy of it (./service.ts).

const REDACTED = 'redacted';

/**
 * What of an order names or locates its customer: the one list of it. Wherever these keys are
 * nested (the order object, a message body holding one, an item or a modifier of it), every
 * value under them is replaced by "redacted".
 */
export const CUSTOMER_DATA = {
  /** Objects about the customer: every value in them, at any depth (an address's coordinates). */
  objects: ['customer', 'customers', 'delivery_address', 'billing_address'],
  /** Text the customer wrote, which may name them or where they are ("ring Dana at 3B"). */
  texts: ['special_instructions', 'fulfillment_instructions', 'delivery_instructions', 'notes'],
  /** Fields that name or reach a person wherever they appear in an order, but in its driver (the
   * event provider's, not the customer's). */
  anywhere: ['email', 'first_name', 'last_name', 'phone', 'phone_number', 'customer_name'],
} as const;

const OBJECTS = new Set<string>(CUSTOMER_DATA.objects);
const TEXTS = new Set<string>(CUSTOMER_DATA.texts);
const ANYWHERE = new Set<string>(CUSTOMER_DATA.anywhere);

/** Every value in it replaced: strings and numbers become "redacted", the shape stays. */
function redactWholly(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactWholly);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactWholly(v)]));
  return typeof value === 'string' || typeof value === 'number' ? REDACTED : value;
}

/** The field of an order object (or of a message's body) that holds its customer's data, sealed
 * (./customer.ts): the pieces taken out of it by splitCustomer, encrypted under the order's key. */
export const SEALED = 'sealed_customer';

/** One piece of a customer's data: where it was in the value (keys and indexes), and what. */
export type Piece = [path: (string | number)[], value: unknown];

/**
 * A JSON value's customer data (CUSTOMER_DATA) taken out, wherever it is nested: the value as an
 * erasure leaves it, each piece "redacted" in place (the shape kept), and the pieces, by where
 * they were. A sealed customer (SEALED) is one of them: an erasure drops it, its key gone.
 */
export function splitCustomer(value: unknown): { redacted: unknown; pieces: Piece[] } {
  const pieces: Piece[] = [];
  // Where the walk is, one path changed as it goes down and up: a copy is made for a piece only
  // (a copy at every field was a third of sealing an order).
  const path: Piece[0] = [];
  const within = (step: string | number, inner: unknown) => {
    path.push(step);
    const out = walk(inner);
    path.pop();
    return out;
  };
  const walk = (inner: unknown): unknown => {
    if (Array.isArray(inner)) return inner.map((item, index) => within(index, item));
    if (!inner || typeof inner !== 'object') return inner;
    const kept: [string, unknown][] = [];
    for (const [key, field] of Object.entries(inner)) {
      if (key === SEALED) pieces.push([[...path, key], field]);
      else if (key === 'driver') kept.push([key, field]);
      else if (OBJECTS.has(key) || TEXTS.has(key) || ANYWHERE.has(key)) {
        const redacted = redactWholly(field);
        if (redacted !== field) pieces.push([[...path, key], field]);
        kept.push([key, redacted]);
      } else kept.push([key, within(key, field)]);
    }
    return Object.fromEntries(kept);
  };
  return { redacted: walk(value), pieces };
}

/** A JSON value with the customer's data in it (CUSTOMER_DATA) redacted, wherever it is nested. */
export const redactJson = (value: unknown): unknown => splitCustomer(value).redacted;

/** The pieces put back where splitCustomer took them from, into the value it left (changed in
 * place, and returned). A place the value no longer has is left out. */
export function joinCustomer(value: unknown, pieces: Piece[]): unknown {
  type Holder = Record<string | number, unknown> | null | undefined;
  for (const [path, piece] of pieces) {
    let holder = value as Holder;
    for (const step of path.slice(0, -1)) holder = holder?.[step] as Holder;
    if (holder && typeof holder === 'object') holder[path.at(-1)!] = piece;
  }
  return value;
}
