// Where a partner's webhook endpoint may point (no server-side request forgery): https, or http to
// this machine in the sandbox; and never at an address of a private, loopback, link-local,
// metadata or other special-purpose range, judged by ipaddr.js's range tables rather than masks of
// our own. Checked when the endpoint is made, and again for each call on the address the call
// connects to: the call's DNS answer is checked inside its own lookup (`guardedLookup`), so an
// answer that changes between the check and the connection cannot get through.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Invalid } from '../../common/errors.js';

/** A host name's addresses. The service uses the system's resolver; tests hand in their own. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export const systemResolver: ResolveHost = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** What the deployment lets endpoints reach: this machine (SANDBOX=on), private ranges
 * (WEBHOOK_ALLOW_PRIVATE=true, for a partner on the same private network). */
export type AddressPolicy = { allowLoopback: boolean; allowPrivate: boolean };

/** Why an endpoint may not be called at this address, or null when it may. */
export function refusedAddress(address: string, policy: AddressPolicy): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  // IPv4-compatible IPv6 (::/96, deprecated by RFC 4291 but still routed to the IPv4 address by
  // some stacks: [::127.0.0.1] is [::7f00:1]): judged as the IPv4 address it holds, which
  // ipaddr.js's tables would call unicast.
  const parts = parsed.kind() === 'ipv6' ? (parsed as ipaddr.IPv6).parts : [];
  if (parts.length && parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7]! > 1))
    parsed = ipaddr.fromByteArray((parsed as ipaddr.IPv6).toByteArray().slice(12));
  const range = parsed.range();
  if (range === 'unicast' || policy.allowPrivate || (range === 'loopback' && policy.allowLoopback)) return null;
  return `${address} is in a ${range} range, which endpoints may not reach`;
}

/** The URL's host as an address, when it is one. */
const literalAddress = (url: URL): string | null => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) ? host : null;
};

const invalidUrl = (message: string) => new Invalid(message, 'invalid_url');

/** An endpoint URL that may be called: 400 `invalid_url` saying why not. */
export async function checkEndpointUrl(text: string, policy: AddressPolicy, resolve: ResolveHost): Promise<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidUrl('url must be an absolute https URL');
  }
  if (url.username || url.password) throw invalidUrl('url must not carry a user name or password');
  const literal = literalAddress(url);
  const local = url.hostname === 'localhost' || (literal !== null && ipaddr.parse(literal).range() === 'loopback');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowLoopback && local))
    throw invalidUrl('url must be https (http only to this machine, in the sandbox)');
  let addresses: string[];
  try {
    addresses = literal ? [literal] : await resolve(url.hostname);
  } catch (error) {
    throw invalidUrl(`url's host ${url.hostname} does not resolve: ${(error as Error).message}`);
  }
  if (!addresses.length) throw invalidUrl(`url's host ${url.hostname} does not resolve`);
  for (const address of addresses) {
    const why = refusedAddress(address, policy);
    if (why) throw invalidUrl(`url's host ${url.hostname} resolves to ${why}`);
  }
  return url.toString();
}

/** Refused before any connection: the call's address is one endpoints may not reach. */
export class RefusedAddress extends Error {}

/** Why a call to this URL is refused before connecting (its host is a literal address), or null. */
export function refusedLiteral(url: string, policy: AddressPolicy): string | null {
  const literal = literalAddress(new URL(url));
  return literal === null ? null : refusedAddress(literal, policy);
}

/** The lookup a call connects through: the host's addresses, each checked, the connection made to
 * one of them; any refused address fails the call before it connects. */
export function guardedLookup(resolve: ResolveHost, policy: AddressPolicy): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    resolve(hostname).then(
      (addresses) => {
        if (!addresses.length) return callback(new RefusedAddress(`${hostname} does not resolve`));
        for (const address of addresses) {
          const why = refusedAddress(address, policy);
          if (why) return callback(new RefusedAddress(`${hostname} resolves to ${why}`));
        }
        const entries = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
        if (options.all) return callback(null, entries);
        return callback(null, entries[0]!.address, entries[0]!.family);
      },
      (error: Error) => callback(error),
    );
  }) as LookupFunction;
}
