import { byKind, retryDelay } from './worker.js';

const policy = { retryBaseMs: 1000, retryMaxMs: 60_000 };
const response = (status: number, retryAfter?: string) => ({
  status,
  body: undefined,
  text: '',
  headers: retryAfter ? { 'retry-after': retryAfter } : {},
});

test('backoff doubles per attempt with jitter, within the ceiling', () => {
  for (let attempt = 1; attempt <= 10; attempt++) {
    const ceiling = Math.min(60_000, 1000 * 2 ** (attempt - 1));
    for (let i = 0; i < 50; i++) {
      const delay = retryDelay(attempt, policy);
      expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delay).toBeLessThanOrEqual(ceiling);
    }
  }
});

test("a 429's Retry-After wins, in seconds or as a date, and is capped", () => {
  expect(retryDelay(1, policy, response(429, '7'))).toBe(7000);
  const date = retryDelay(1, policy, response(429, new Date(Date.now() + 20_000).toUTCString()));
  expect(date).toBeGreaterThan(18_000);
  expect(date).toBeLessThanOrEqual(20_000);
  expect(retryDelay(1, policy, response(429, '3600'))).toBe(60_000);
  // Only a 429's header counts; a 503's falls back to the backoff.
  expect(retryDelay(1, policy, response(503, '30'))).toBeLessThanOrEqual(1000);
});

test('the handlers of every module make one list, and two for one kind of message stop the start', () => {
  const publish = () => undefined;
  const order = () => undefined;
  expect(byKind('outcome', { 'menu.publish': publish }, { 'order.created': order })).toEqual({
    'menu.publish': publish,
    'order.created': order,
  });
  expect(() => byKind('outcome', { 'order.created': publish }, { 'order.created': order })).toThrow(
    'two outcome handlers for order.created messages',
  );
});
