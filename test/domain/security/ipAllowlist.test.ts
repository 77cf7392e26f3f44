import { describe, expect, it } from 'vitest';
import { invalidIpRules, ipAllowed, parseIpRule } from '../../../domain/security/ipAllowlist';

describe('IP allowlist rules', () => {
  it('parses addresses and CIDR ranges of both families', () => {
    expect(parseIpRule('203.0.113.7')).toEqual({ address: '203.0.113.7', family: 'ipv4' });
    expect(parseIpRule('10.0.0.0/8')).toEqual({ address: '10.0.0.0', family: 'ipv4', prefix: 8 });
    expect(parseIpRule('2001:db8::/32')).toEqual({ address: '2001:db8::', family: 'ipv6', prefix: 32 });
    expect(parseIpRule('::1/128')).toEqual({ address: '::1', family: 'ipv6', prefix: 128 });
  });

  it('rejects anything else', () => {
    expect(
      invalidIpRules(['10.0.0.0/33', '::/129', '10.0.0.0/', '10.0.0.0/8/8', '10.0.0.0/-1', '256.1.1.1', 'example.com', '', '1.2.3.4/0x8']),
    ).toHaveLength(9);
    expect(invalidIpRules(['0.0.0.0/0', '::/0'])).toEqual([]);
  });

  it('matches addresses inside the ranges only', () => {
    const list = ['10.0.0.0/8', '203.0.113.7', '2001:db8::/32'];
    expect(ipAllowed(list, '10.255.0.1')).toBe(true);
    expect(ipAllowed(list, '11.0.0.1')).toBe(false);
    expect(ipAllowed(list, '203.0.113.7')).toBe(true);
    expect(ipAllowed(list, '203.0.113.8')).toBe(false);
    expect(ipAllowed(list, '2001:db8:ffff::1')).toBe(true);
    expect(ipAllowed(list, '2001:db9::1')).toBe(false);
  });

  it('matches an IPv4-mapped IPv6 client as its IPv4 address', () => {
    expect(ipAllowed(['10.0.0.0/8'], '::ffff:10.1.2.3')).toBe(true);
    expect(ipAllowed(['10.0.0.0/8'], '::ffff:11.1.2.3')).toBe(false);
  });

  it('fails closed: damaged entries and unparsable client addresses match nothing', () => {
    expect(ipAllowed(['not-an-ip'], '10.0.0.1')).toBe(false);
    expect(ipAllowed(['10.0.0.0/8'], 'unknown')).toBe(false);
    expect(ipAllowed([], '10.0.0.1')).toBe(false);
  });
});
