// Which addresses a live webhook may reach: every public address, no special-purpose one, also when an
// IPv6 form carries an IPv4 address.
import { describe, expect, it } from 'vitest';
import { assertLiveWebhookUrl, isPublicAddress } from '../../activities/webhooks/webhookTarget';

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '100.63.255.255', // just below 100.64/10
  '172.32.0.1', // just above 172.16/12
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:82b::200e',
  '64:ff9b::808:808', // NAT64 of 8.8.8.8
  '2002:808:808::1', // 6to4 of 8.8.8.8
  '::ffff:8.8.8.8',
];

const RESERVED = [
  ['0.0.0.0', 'this network'],
  ['0.1.2.3', 'this network'],
  ['10.0.0.1', 'private'],
  ['100.64.0.1', 'shared address space (CGNAT)'],
  ['100.127.255.254', 'shared address space (CGNAT)'],
  ['127.0.0.1', 'loopback'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.1', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation'],
  ['192.31.196.1', 'AS112'],
  ['192.52.193.1', 'AMT'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['192.168.1.1', 'private'],
  ['192.175.48.1', 'AS112'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.254', 'benchmarking'],
  ['198.51.100.1', 'documentation'],
  ['203.0.113.1', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast'],
  ['100::1', 'discard'],
  ['2001:db8::1', 'documentation'],
  ['2001:2::1', 'benchmarking'],
  ['2001:10::1', 'ORCHID'],
  ['2001:20::1', 'ORCHIDv2'],
  ['3fff::1', 'documentation'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
  ['::ffff:0:a00:1', 'IPv4-translated private'],
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['64:ff9b::a00:1', 'NAT64 of private'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of link-local'],
  ['64:ff9b:1::808:808', 'local-use NAT64'],
  ['2002:7f00:1::1', '6to4 of loopback'],
  ['2002:a00:1::1', '6to4 of private'],
  ['2002:c0a8:101::1', '6to4 of private'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['2001::1', 'Teredo'],
] as const;

describe('webhook target addresses', () => {
  it.each(PUBLIC)('accepts the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(RESERVED)('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it('refuses what is not an address in standard form', () => {
    for (const text of ['', 'localhost', '0x7f.1', '127.1', '2130706433', '8.8.8.8.8']) expect(isPublicAddress(text)).toBe(false);
  });

  it('refuses non-https and non-public literal hosts before connecting, and lets public ones through', () => {
    expect(() => assertLiveWebhookUrl(new URL('http://8.8.8.8/hook'))).toThrow('live webhook URLs must use https');
    expect(() => assertLiveWebhookUrl(new URL('https://[::ffff:7f00:1]/hook'))).toThrow('webhook host ::ffff:7f00:1 is not a public address');
    expect(() => assertLiveWebhookUrl(new URL('https://[64:ff9b::a00:1]/hook'))).toThrow('is not a public address');
    expect(() => assertLiveWebhookUrl(new URL('https://8.8.8.8/hook'))).not.toThrow();
    expect(() => assertLiveWebhookUrl(new URL('https://[2606:4700:4700::1111]/hook'))).not.toThrow();
  });
});
