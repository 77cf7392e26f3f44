// Which address a request came from, for IP allowlists, rate limits and logs. X-Forwarded-For is believed
// only from the operator's own proxies (TRUST_PROXY, a list of addresses and CIDR ranges), and only as far
// as it was written by them: walking it from the right, the first address that is not a trusted proxy is
// the client. Entries further left were written by the client itself and prove nothing.
import { isIP } from 'node:net';
import { ipAllowed } from './ipAllowlist';

export function clientAddressOf(peer: string, forwardedFor: string | undefined, trustedProxies: readonly string[]): string {
  if (trustedProxies.length === 0 || !forwardedFor || !ipAllowed(trustedProxies, peer)) return peer;
  const hops = forwardedFor
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    // A malformed entry ends the walk: nothing left of it can be attributed to our proxies.
    if (isIP(hop) === 0) return client;
    client = hop;
    if (!ipAllowed(trustedProxies, hop)) return client;
  }
  return client;
}
