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

/** A JSON value with the customer's data in it (CUSTOMER_DATA) redacted, wherever it is nested. */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      if (key === 'driver') return [key, inner];
      if (OBJECTS.has(key) || TEXTS.has(key) || ANYWHERE.has(key)) return [key, redactWholly(inner)];
      return [key, redactJson(inner)];
    }),
  );
}
