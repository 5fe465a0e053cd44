// Which event provider delivers a merchant-delivered order, for every case of what is named and
// registered.
import { dispatcherOf } from './dispatch.js';

const cases: [string, Parameters<typeof dispatcherOf>[0], ReturnType<typeof dispatcherOf>][] = [
  [
    'the one its organization names',
    { named: 'fleet-a', namedKind: 'event_provider', registered: 3, only: 'fleet-a' },
    { source: 'fleet-a' },
  ],
  [
    'the named one, even when it is the only one',
    { named: 'solo', namedKind: 'event_provider', registered: 1, only: 'solo' },
    { source: 'solo' },
  ],
  ['none named: the only one registered', { named: null, namedKind: null, registered: 1, only: 'solo' }, { source: 'solo' }],
  ['none named, a count as PostgreSQL gives it', { named: null, namedKind: null, registered: '1', only: 'solo' }, { source: 'solo' }],
  [
    'none named and two registered: none',
    { named: null, namedKind: null, registered: 2, only: 'fleet-a' },
    { none: 'the organization names no event provider and 2 are registered' },
  ],
  ['none registered: none', { named: null, namedKind: null, registered: 0, only: null }, { none: 'no event provider is registered' }],
  [
    'a name no longer registered: none, not another',
    { named: 'gone', namedKind: null, registered: 1, only: 'solo' },
    { none: 'the organization names gone, which is not a registered event provider' },
  ],
  [
    'a name registered as another kind: none',
    { named: 'sandbox-pos', namedKind: 'pos', registered: 1, only: 'solo' },
    { none: 'the organization names sandbox-pos, which is not a registered event provider' },
  ],
];

test.each(cases)('%s', (_case, candidates, expected) => expect(dispatcherOf(candidates)).toEqual(expected));
