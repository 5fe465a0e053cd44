// Money as the platforms carry it (docs/reference.md § Money): every amount on every wire is a
// whole number of its currency's smallest unit (USD 2500 is $25.00, JPY 2500 is ¥2,500, KWD 2500
// is 2.500 KD), and a currency is a lower-case ISO 4217 code. Whole numbers compare exactly: no
// float rounds a price, and no check needs a tolerance.
//
// How many decimals a currency's smallest unit has comes from the platform (Intl, whose data is
// Unicode CLDR's), never from a table written here: the same data the dashboard formats with, so
// an amount is read and shown by one rule. CLDR gives the decimals a currency is written with in
// practice, which ISO 4217 exceeds for a few (HUF, IDR, COP, PKR… have 2 in ISO and 0 in CLDR):
// there the smallest unit is the whole forint, rupiah, peso, rupee (docs/pos-vendors.md says so).

/** The largest amount taken, in the smallest unit: far above any order, far below where a
 * double stops holding whole numbers exactly. */
export const MAX_AMOUNT = 100_000_000_000;

/** A whole number from 0 to MAX_AMOUNT. `-0` is refused: it is what a sender that computed a
 * negative amount and rounded it sends, never a price. */
export const isAmount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_AMOUNT && !Object.is(value, -0);

let codes: ReadonlySet<string> | undefined;
/** A lower-case ISO 4217 code of a currency the platform knows (Intl.supportedValuesOf). */
export function isCurrency(value: unknown): value is string {
  codes ??= new Set(Intl.supportedValuesOf('currency').map((code) => code.toLowerCase()));
  return codes.has(value as string);
}

const digitsOf = new Map<string, number>();
/** How many decimals the currency's smallest unit has: 2 for usd and eur, 0 for jpy, 3 for kwd. */
export function minorUnitDigits(currency: string): number {
  let digits = digitsOf.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsOf.set(currency, digits);
  }
  return digits;
}

/** An amount in the currency's major unit, as exact decimal text: 2500 usd is "25.00", 2500 jpy
 * "2500", 2500 kwd "2.500". Text, not a number, so that formatting it never rounds. */
export function majorUnits(amount: number, digits: number): string {
  const sign = amount < 0 ? '-' : '';
  const text = String(Math.abs(amount)).padStart(digits + 1, '0');
  return digits ? `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}` : `${sign}${text}`;
}

/** A value as a message shows it: `-0` as -0 (JSON would say 0), text quoted. */
export const shownAmount = (value: unknown): string =>
  Object.is(value, -0) ? '-0' : (JSON.stringify(value) ?? String(value)).slice(0, 40);

/** What to send instead of a value that is not an amount, when it can be told: a price in major
 * units (3.5 usd) is 350; a number sent as text is sent as a number. */
function instead(value: unknown, currency: string | null | undefined): string {
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return '; send a JSON number, not text';
  if (typeof value !== 'number' || !isCurrency(currency)) return '';
  const scale = 10 ** minorUnitDigits(currency);
  const whole = Math.round(value * scale);
  // Exact: an amount with at most the currency's decimals is itself once divided back (11.99 is
  // 1199 / 100), any other is not (11.999, 2.5 yen); no tolerance to choose.
  return isAmount(whole) && whole / scale === value ? `; send ${whole} for ${value} ${currency}` : '';
}

/** The rule an amount breaks, for a message that names the field before it: "must be a whole
 * number …, not 3.5; send 350 for 3.5 usd". */
export const amountRule = (value: unknown, currency?: string | null): string =>
  `must be a whole number of the currency's smallest unit, from 0 to ${MAX_AMOUNT}, not ${shownAmount(value)}${instead(value, currency)}`;

/** The rule a currency breaks, for a message that names the field before it. */
export const currencyRule = (value: unknown): string =>
  `must be a lower-case ISO 4217 code (usd, eur, jpy…), not ${shownAmount(value)}${
    typeof value === 'string' && isCurrency(value.toLowerCase()) ? `; send ${JSON.stringify(value.toLowerCase())}` : ''
  }`;
