import { Expiring } from './expiring.js';

describe('Expiring', () => {
  it('remembers an entry for its time to live, then forgets it', async () => {
    const cache = new Expiring<string, number>(50);
    cache.set('a', 1);
    expect(cache.get('a')).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    expect(cache.get('a')).toBeUndefined();
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
