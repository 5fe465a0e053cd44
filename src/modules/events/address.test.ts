// Where a partner's endpoint may point, as a table of addresses and what the policy says of each.
import { refusedAddress } from './address.js';

const strict = { allowLoopback: false, allowPrivate: false };
const sandbox = { allowLoopback: true, allowPrivate: false };

test.each([
  ['a public IPv4 address', '93.184.216.34', strict, null],
  ['a public IPv6 address', '2606:4700::1', strict, null],
  ['loopback', '127.0.0.1', strict, 'loopback'],
  ['loopback, in the sandbox', '127.0.0.1', sandbox, null],
  ['IPv6 loopback', '::1', strict, 'loopback'],
  ['a private range', '10.1.2.3', strict, 'private'],
  ['the metadata address (link-local)', '169.254.169.254', strict, 'linkLocal'],
  ['IPv4-mapped loopback', '::ffff:127.0.0.1', strict, 'loopback'],
  ['IPv4-compatible loopback ([::127.0.0.1])', '::7f00:1', strict, 'loopback'],
  ['IPv4-compatible private', '::a00:1', strict, 'private'],
  ['NAT64 of loopback', '64:ff9b::7f00:1', strict, 'rfc6052'],
  ['6to4', '2002:7f00:1::', strict, '6to4'],
  ['the unspecified address', '::', strict, 'unspecified'],
  ['not an address', 'example.com', strict, 'not an IP address'],
])('%s: %s', (_name, address, policy, refused) => {
  const why = refusedAddress(address, policy);
  if (refused === null) expect(why).toBeNull();
  else expect(why).toContain(refused);
});
