import { jest } from '@jest/globals';
import { Kept } from './kept.js';

describe('Kept', () => {
  it('remembers an entry for its time to live, then forgets it', () => {
    const now = Date.now();
    // The clock is moved past the time to live rather than waited for.
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const cache = new Kept<string, number>({ max: 10, ttlMs: 50 });
      cache.set('a', 1);
      clock.mockImplementation(() => now + 49);
      expect(cache.get('a')).toBe(1);
      clock.mockImplementation(() => now + 60);
      expect(cache.get('a')).toBeUndefined();
    } finally {
      clock.mockRestore();
    }
  });

  it('forgets a deleted entry at once, and the least recently used when full', () => {
    const cache = new Kept<string, number>({ max: 2 });
    cache.set('a', 1);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('b')).toBe(2);
    cache.set('d', 4);
    expect(cache.get('c')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
    expect(cache.get('d')).toBe(4);
  });

  it('reads a value once while kept, and again after a read that failed', async () => {
    const cache = new Kept<string, Promise<number>>({ max: 10 });
    let reads = 0;
    const failing = () => {
      reads++;
      return Promise.reject(new Error('database away'));
    };
    await expect(cache.remember('a', failing)).rejects.toThrow('database away');
    const reading = () => {
      reads++;
      return Promise.resolve(7);
    };
    await expect(cache.remember('a', reading)).resolves.toBe(7);
    await expect(cache.remember('a', reading)).resolves.toBe(7);
    expect(reads).toBe(2);
  });
});
