// IP allowlists of API keys (docs/api.md#rate-limits-and-ip-allowlists). An entry is a
// single address or a CIDR range, IPv4 or IPv6: `203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`.
import { BlockList, isIP } from 'node:net';
import { z } from '../wire/validationMessages';

type Family = 'ipv4' | 'ipv6';

interface IpRule {
  address: string;
  family: Family;
  /** Absent for a single address. */
  prefix?: number;
}

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The rule an entry spells, or undefined when it is not an address or a range with a valid prefix length. */
export function parseIpRule(entry: string): IpRule | undefined {
  const [address = '', prefixText, extra] = entry.trim().split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return undefined;
  const family: Family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, family };
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (prefix > (family === 'ipv4' ? 32 : 128)) return undefined;
  return { address, family, prefix };
}

/** Entries of `entries` that are not valid rules; empty when every entry is usable. */
export function invalidIpRules(entries: readonly string[]): string[] {
  return entries.filter((entry) => parseIpRule(entry) === undefined);
}

/**
 * Whether `clientIp` falls inside any entry. An entry that does not parse matches nothing, so a damaged
 * allowlist refuses requests instead of silently allowing them. IPv4 clients reaching a dual-stack
 * listener appear as `::ffff:a.b.c.d` and are matched as the IPv4 address they are.
 */
export function ipAllowed(allowlist: readonly string[], clientIp: string): boolean {
  const list = new BlockList();
  for (const entry of allowlist) {
    const rule = parseIpRule(entry);
    if (!rule) continue;
    if (rule.prefix === undefined) list.addAddress(rule.address, rule.family);
    else list.addSubnet(rule.address, rule.prefix, rule.family);
  }
  const mapped = IPV4_MAPPED.exec(clientIp)?.[1];
  if (mapped && list.check(mapped, 'ipv4')) return true;
  const version = isIP(clientIp);
  if (version === 0) return false;
  return list.check(clientIp, version === 4 ? 'ipv4' : 'ipv6');
}

/** A comma-separated allowlist as people type it (CLI option, dashboard field): trimmed, de-duplicated, every entry valid. */
export const IpAllowlistText = z
  .string()
  .transform((text) => [
    ...new Set(
      text
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
  ])
  .superRefine((entries, ctx) => {
    if (entries.length === 0) ctx.addIssue({ code: 'custom', message: 'lists no address' });
    const invalid = invalidIpRules(entries);
    if (invalid.length > 0) ctx.addIssue({ code: 'custom', message: `not an IP address or CIDR range: ${invalid.join(', ')}` });
  });
