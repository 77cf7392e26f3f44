// Which webhook targets a session may use. Live keys, and test keys too when APP_ENV=production, may only
// reach public https endpoints: a test key is as easy to get as a sign-up, so in production it must not be a
// way into the operator's internal network. Loopback and private targets are for development, or for the
// addresses an operator lists explicitly (WEBHOOK_ALLOWED_PRIVATE_TARGETS).
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ipAllowed } from '../security/ipAllowlist';
import type { Mode } from '../wire/session';

export interface WebhookTargetPolicy {
  /** https only, and only public addresses or the operator's allowlisted ones. */
  strict: boolean;
  /** Address ranges the operator allows despite being private (strict policies only). */
  allowedPrivateTargets: readonly string[];
}

export function webhookTargetPolicy(mode: Mode, appEnv: string, allowedPrivateTargets: readonly string[]): WebhookTargetPolicy {
  return { strict: mode === 'live' || appEnv === 'production', allowedPrivateTargets };
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

/** Whether a resolved (or literal) address may be connected to under the policy. */
export function addressAllowed(policy: WebhookTargetPolicy, address: string): boolean {
  if (!policy.strict) return true;
  return isPublicAddress(address) || ipAllowed(policy.allowedPrivateTargets, address);
}

/**
 * Why a URL may not be used under the policy, judged before any connection: scheme and literal hosts.
 * Hostnames are judged on what they resolve to, at delivery.
 */
export function webhookUrlProblem(policy: WebhookTargetPolicy, url: URL): string | undefined {
  if (!policy.strict) return undefined;
  if (url.protocol !== 'https:') return 'Must use https';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !addressAllowed(policy, host)) return `Host ${host} is not a public address`;
  // RFC 6761: these names always mean this machine, whatever a resolver says.
  if (host === 'localhost' || host.endsWith('.localhost')) return `Host ${host} is not a public address`;
  return undefined;
}
