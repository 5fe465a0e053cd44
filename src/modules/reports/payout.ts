// What a platform is expected to pay out for a day (docs/api-guide.md, "Commission and the
// expected payout"), pure: each figure named, in minor units, whole numbers throughout. The
// commission is a percentage a partner sets per organization and platform, kept in hundredths of
// a percent (basis points), so 12.5 % is 1250 and no float is ever multiplied.

/** The figures of a day's taken orders that the payout reads. */
export type PayoutFigures = { subtotal: number; tax: number; restaurantTip: number; discountMerchant: number };

export type Payout = PayoutFigures & {
  /** The rate, in percent (12.5). */
  commissionPercent: number;
  /** subtotal × the rate, to the minor unit, half away from zero. */
  commission: number;
  /** subtotal + tax + restaurantTip − discountMerchant − commission. */
  payout: number;
};

/** The largest rate: the whole subtotal. */
const ALL = 10_000n;

/** The commission on a subtotal at a rate in basis points, rounded half away from zero (in
 * BigInt: a month's subtotal times 10,000 passes 2^53). */
export function commissionOf(subtotal: number, basisPoints: number): number {
  const product = BigInt(subtotal) * BigInt(basisPoints);
  const half = product < 0n ? -ALL / 2n : ALL / 2n;
  return Number((product + half) / ALL);
}

/** The expected payout of a day's figures at a rate in basis points. */
export function payoutOf({ subtotal, tax, restaurantTip, discountMerchant }: PayoutFigures, basisPoints: number): Payout {
  const commission = commissionOf(subtotal, basisPoints);
  return {
    subtotal,
    tax,
    restaurantTip,
    discountMerchant,
    commissionPercent: basisPoints / 100,
    commission,
    payout: subtotal + tax + restaurantTip - discountMerchant - commission,
  };
}

/** A commission_percent as sent, in basis points; or what is wrong with it. A number from 0 to 100
 * with at most two decimals (12.5, 15.25). */
export function basisPointsOf(percent: unknown): { basisPoints: number } | { problem: string } {
  if (typeof percent !== 'number' || !Number.isFinite(percent))
    return { problem: `commission_percent must be a number from 0 to 100, not ${JSON.stringify(percent ?? null)}` };
  if (percent < 0 || percent > 100) return { problem: `commission_percent must be from 0 to 100, not ${percent}` };
  const basisPoints = Math.round(percent * 100);
  if (Math.abs(basisPoints - percent * 100) > 1e-6)
    return { problem: `commission_percent has at most two decimals (12.5, 15.25), not ${percent}` };
  return { basisPoints };
}
