// Live webhooks may only reach public https endpoints. The address check runs in the socket's own DNS
// lookup, so a hostname cannot pass the check with one address and connect with another.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) forbidden.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['::ffff:0:0', 96]] as const) {
  forbidden.addSubnet(network, prefix, 'ipv6');
}

export class WebhookTargetRefusedError extends Error {
  override name = 'WebhookTargetRefusedError';
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !forbidden.check(address, family === 4 ? 'ipv4' : 'ipv6');
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
