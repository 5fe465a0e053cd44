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
});
