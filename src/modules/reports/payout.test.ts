import { basisPointsOf, commissionOf, payoutOf } from './payout.js';

describe('the commission on a subtotal', () => {
  test.each([
    [10_000, 1500, 1500],
    [10_000, 0, 0],
    [10_000, 10_000, 10_000],
    // 1,005 × 12.5 % = 125.625: 126; 1,004 × 12.5 % = 125.5: half away from zero, 126; 1,003: 125.375, 125.
    [1005, 1250, 126],
    [1004, 1250, 126],
    [1003, 1250, 125],
    // A month of a busy store: the product passes 2^53, the answer stays whole.
    [90_000_000_000_001, 3333, 29_997_000_000_000],
  ])('%i at %i basis points is %i', (subtotal, basisPoints, commission) => {
    expect(commissionOf(subtotal, basisPoints)).toBe(commission);
  });
});

test('the expected payout names each figure: subtotal + tax + restaurant tip − merchant discounts − commission', () => {
  // The other figures of the day are not the payout's.
  expect(payoutOf({ subtotal: 10_000, tax: 800, restaurantTip: 300, discountMerchant: 500, driverTip: 400 } as never, 1500)).toEqual({
    subtotal: 10_000,
    tax: 800,
    restaurantTip: 300,
    discountMerchant: 500,
    commissionPercent: 15,
    commission: 1500,
    payout: 10_000 + 800 + 300 - 500 - 1500,
  });
});

describe('commission_percent as sent', () => {
  test.each([
    [0, 0],
    [12.5, 1250],
    [15.25, 1525],
    [100, 10_000],
    [0.01, 1],
  ])('%p is %i basis points', (percent, basisPoints) => {
    expect(basisPointsOf(percent)).toEqual({ basisPoints });
  });

  test.each([
    [-1, 'commission_percent must be from 0 to 100, not -1'],
    [101, 'commission_percent must be from 0 to 100, not 101'],
    ['12', 'commission_percent must be a number from 0 to 100, not "12"'],
    [null, 'commission_percent must be a number from 0 to 100, not null'],
    [Number.NaN, 'commission_percent must be a number from 0 to 100, not null'],
    [12.345, 'commission_percent has at most two decimals (12.5, 15.25), not 12.345'],
  ])('%p is refused', (percent, problem) => {
    expect(basisPointsOf(percent)).toEqual({ problem });
  });
});
