// Scopes as stored (comma-separated) and read back.
import { isScope, parseScopes, SCOPES, storeScopes } from './scopes.js';

test.each([...SCOPES])('%s is a scope', (scope) => expect(isScope(scope)).toBe(true));
test.each(['', 'admin', 'User', 'user '])('%j is not', (value) => expect(isScope(value)).toBe(false));

test.each([
  ['several', 'user,onboarding', ['user', 'onboarding']],
  ['none', '', []],
  ['an unknown one among them, left out', 'user,admin,sso', ['user', 'sso']],
])('parseScopes: %s', (_case, stored, expected) => expect(parseScopes(stored)).toEqual(expected));

test('storeScopes keeps each once, in order, and parseScopes reads it back', () => {
  const stored = storeScopes(['sso', 'user', 'sso']);
  expect(stored).toBe('sso,user');
  expect(parseScopes(stored)).toEqual(['sso', 'user']);
});
