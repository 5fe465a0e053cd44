import { jest } from '@jest/globals';
import { Kept, keptPer } from './kept.js';

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

describe('time to live, at its edge', () => {
  it('forgets an entry at the very millisecond its time is up, and keeps one without a time to live', () => {
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const expiring = new Kept<string, number>({ max: 10, ttlMs: 50 });
      const lasting = new Kept<string, number>({ max: 10 });
      expiring.set('a', 1);
      lasting.set('a', 1);
      clock.mockImplementation(() => now + 50);
      expect(expiring.get('a')).toBeUndefined();
      clock.mockImplementation(() => now + 365 * 86_400_000);
      expect(lasting.get('a')).toBe(1);
    } finally {
      clock.mockRestore();
    }
  });
});

describe('remember, when a read fails after the entry changed', () => {
  it('keeps the value set meanwhile', async () => {
    const cache = new Kept<string, Promise<number>>({ max: 10 });
    let fail!: (error: Error) => void;
    const failing = cache.remember('a', () => new Promise<number>((_resolve, reject) => (fail = reject)));
    const newer = Promise.resolve(8);
    cache.set('a', newer);
    fail(new Error('database away'));
    await expect(failing).rejects.toThrow('database away');
    expect(cache.get('a')).toBe(newer);
  });

  it('lets it go quietly when the entry was deleted meanwhile', async () => {
    const cache = new Kept<string, Promise<number>>({ max: 10 });
    let fail!: (error: Error) => void;
    const failing = cache.remember('a', () => new Promise<number>((_resolve, reject) => (fail = reject)));
    cache.delete('a');
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      fail(new Error('database away'));
      await expect(failing).rejects.toThrow('database away');
      // Unhandled rejections are reported after the microtasks of this turn.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      expect(cache.get('a')).toBeUndefined();
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});

describe('keptPer', () => {
  it('keeps one cache per owner: the same for the same owner, none shared between two', () => {
    const per = keptPer<object, string, number>({ max: 10 });
    const one = {};
    const other = {};
    per(one).set('a', 1);
    expect(per(one).get('a')).toBe(1);
    expect(per(other).get('a')).toBeUndefined();
  });
});
