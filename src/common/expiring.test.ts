import { jest } from '@jest/globals';
import { Expiring } from './expiring.js';

describe('Expiring', () => {
  it('remembers an entry for its time to live, then forgets it', () => {
    const now = Date.now();
    // The clock is moved past the time to live rather than waited for.
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const cache = new Expiring<string, number>(50);
      cache.set('a', 1);
      clock.mockImplementation(() => now + 49);
      expect(cache.get('a')).toBe(1);
      clock.mockImplementation(() => now + 60);
      expect(cache.get('a')).toBeUndefined();
    } finally {
      clock.mockRestore();
    }
  });

  it('forgets a deleted entry at once, and everything when full', () => {
    const cache = new Expiring<string, number>(60_000, 2);
    cache.set('a', 1);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', 2);
    cache.set('c', 3);
    cache.set('d', 4);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('d')).toBe(4);
  });
});
