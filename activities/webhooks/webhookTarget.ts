// Live webhooks may only reach public https endpoints. The address check runs in the socket's own DNS
// lookup, so a hostname cannot pass the check with one address and connect with another.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export class WebhookTargetRefusedError extends Error {
  override name = 'WebhookTargetRefusedError';
}

/**
 * The IPv4 address an IPv6 address carries, for the forms that route to it: IPv4-mapped and translated
 * (::ffff:a.b.c.d), the well-known NAT64 prefix (64:ff9b::/96) and 6to4 (2002:AABB:CCDD::/48).
 */
function carriedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  const range = address.range();
  const wellKnownNat64 = range === 'rfc6052' && bytes.slice(4, 12).every((b) => b === 0);
  if (range === 'ipv4Mapped' || range === 'rfc6145' || wellKnownNat64) return new ipaddr.IPv4(bytes.slice(12, 16));
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  return undefined;
}

/**
 * Only global unicast addresses are public: ipaddr.js classifies every special-purpose range of RFC 6890
 * and its successors (private, loopback, link-local, CGNAT, benchmarking, documentation, multicast, …).
 * An IPv6 form that carries an IPv4 address is judged by that address; other transition forms (Teredo,
 * local-use NAT64) are refused outright.
 */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  const parsed = ipaddr.parse(address);
  const judged = parsed.kind() === 'ipv6' ? (carriedIPv4(parsed as ipaddr.IPv6) ?? parsed) : parsed;
  return judged.range() === 'unicast';
}

/** Rejects URLs a live webhook may not use before any connection is made. */
export function assertLiveWebhookUrl(url: URL): void {
  if (url.protocol !== 'https:') throw new WebhookTargetRefusedError('live webhook URLs must use https');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isPublicAddress(host)) throw new WebhookTargetRefusedError(`webhook host ${host} is not a public address`);
}

/** A DNS lookup that fails when any resolved address is private, loopback or link-local. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new WebhookTargetRefusedError(`webhook host ${hostname} resolves to non-public ${refused.address}`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0];
    if (!first) return callback(new WebhookTargetRefusedError(`webhook host ${hostname} has no address`), '', 0);
    return callback(null, first.address, first.family);
  });
};
