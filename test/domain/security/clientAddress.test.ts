// X-Forwarded-For is believed only from the operator's listed proxies, and only as far as
// they wrote it.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config/env';
import { clientAddressOf } from '../../../domain/security/clientAddress';

const PROXIES = ['10.0.0.0/8', '2001:db8:ffff::/48'];

describe('client address', () => {
  it('is the peer when no proxy is trusted, or the peer is not one of them', () => {
    expect(clientAddressOf('203.0.113.9', '198.51.100.1', [])).toBe('203.0.113.9');
    expect(clientAddressOf('203.0.113.9', '198.51.100.1', PROXIES)).toBe('203.0.113.9');
  });

  it('is the right-most forwarded address that is not a trusted proxy', () => {
    expect(clientAddressOf('10.0.0.1', '198.51.100.1', PROXIES)).toBe('198.51.100.1');
    expect(clientAddressOf('10.0.0.1', '6.6.6.6, 198.51.100.1', PROXIES)).toBe('198.51.100.1');
    expect(clientAddressOf('10.0.0.1', '6.6.6.6, 198.51.100.1, 10.9.9.9', PROXIES)).toBe('198.51.100.1');
    expect(clientAddressOf('2001:db8:ffff::1', '2001:db8::7, 2001:db8:ffff::2', PROXIES)).toBe('2001:db8::7');
  });

  it('stops at a malformed entry, keeping the last address the proxies vouch for', () => {
    expect(clientAddressOf('10.0.0.1', '198.51.100.1, junk', PROXIES)).toBe('10.0.0.1');
    expect(clientAddressOf('10.0.0.1', 'junk, 10.2.2.2', PROXIES)).toBe('10.2.2.2');
  });

  it('refuses the old boolean TRUST_PROXY, saying what to set instead', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' }, 'api')).toThrow(
      /TRUST_PROXY: is a list of your reverse proxies' addresses or CIDR ranges/,
    );
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' }, 'api')).toThrow('TRUST_PROXY: not an address or CIDR range: 10.0.0.0/33');
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1' }, 'api').trustedProxies).toEqual(['10.0.0.0/8', '::1']);
  });
});
