import crypto from 'node:crypto';
import { jest } from '@jest/globals';
import { newId, randomId } from './ids.js';

describe('ids', () => {
  it('are the prefix and 16 base64url characters, and never repeat, across many refills of the random pool', () => {
    const ids = Array.from({ length: 5000 }, () => newId('ord'));
    for (const id of ids) expect(id).toMatch(/^ord_[A-Za-z0-9_-]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const bare = Array.from({ length: 1000 }, randomId);
    for (const id of bare) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(new Set([...ids.map((id) => id.slice(4)), ...bare]).size).toBe(ids.length + bare.length);
  });

  it('draw from the operating system 4 KB at a time, once per 341 ids, not once per id', () => {
    const draws = jest.spyOn(crypto, 'randomFillSync');
    try {
      // Any 3 × 341 ids in a row take exactly three draws, wherever the pool stood.
      for (let i = 0; i < 3 * 341; i++) randomId();
      expect(draws).toHaveBeenCalledTimes(3);
      for (const [buffer] of draws.mock.calls) expect((buffer as Buffer).length).toBe(4096);
    } finally {
      draws.mockRestore();
    }
  });
});
