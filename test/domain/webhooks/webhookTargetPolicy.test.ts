// Which targets a webhook may reach: under the strict policy (live keys; every key in production) every
// public address and no special-purpose one, also when an IPv6 form carries an IPv4 address, unless the
// operator allowlisted it; anything in development.
import { describe, expect, it } from 'vitest';
import { addressAllowed, isPublicAddress, webhookTargetPolicy, webhookUrlProblem } from '../../../domain/webhooks/webhookTargetPolicy';

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
    const strict = webhookTargetPolicy('live', 'development', []);
    const problem = (url: string) => webhookUrlProblem(strict, new URL(url));
    expect(problem('http://8.8.8.8/hook')).toBe('Must use https');
    expect(problem('https://[::ffff:7f00:1]/hook')).toBe('Host ::ffff:7f00:1 is not a public address');
    expect(problem('https://[64:ff9b::a00:1]/hook')).toBe('Host 64:ff9b::a00:1 is not a public address');
    expect(problem('https://localhost/hook')).toBe('Host localhost is not a public address');
    expect(problem('https://api.localhost/hook')).toBe('Host api.localhost is not a public address');
    expect(problem('https://8.8.8.8/hook')).toBeUndefined();
    expect(problem('https://[2606:4700:4700::1111]/hook')).toBeUndefined();
    expect(problem('https://hooks.merchant.example/hook')).toBeUndefined();
  });
});

describe('webhook target policy', () => {
  it('is strict for live keys everywhere and for test keys in production', () => {
    expect(webhookTargetPolicy('live', 'development', []).strict).toBe(true);
    expect(webhookTargetPolicy('live', 'test', []).strict).toBe(true);
    expect(webhookTargetPolicy('test', 'production', []).strict).toBe(true);
    expect(webhookTargetPolicy('test', 'development', []).strict).toBe(false);
    expect(webhookTargetPolicy('test', 'test', []).strict).toBe(false);
  });

  it('lets test keys reach loopback and private receivers outside production', () => {
    const relaxed = webhookTargetPolicy('test', 'development', []);
    expect(webhookUrlProblem(relaxed, new URL('http://127.0.0.1:4000/hook'))).toBeUndefined();
    expect(webhookUrlProblem(relaxed, new URL('http://localhost/hook'))).toBeUndefined();
    expect(addressAllowed(relaxed, '10.0.0.1')).toBe(true);
  });

  it('in production lets test keys reach only what live keys reach', () => {
    const production = webhookTargetPolicy('test', 'production', []);
    expect(webhookUrlProblem(production, new URL('http://merchant.example/hook'))).toBe('Must use https');
    expect(webhookUrlProblem(production, new URL('https://10.0.0.5/hook'))).toBe('Host 10.0.0.5 is not a public address');
    expect(addressAllowed(production, '169.254.169.254')).toBe(false);
    expect(addressAllowed(production, '8.8.8.8')).toBe(true);
  });

  it("allows only the operator's listed private ranges, still over https", () => {
    const listed = webhookTargetPolicy('test', 'production', ['10.1.0.0/16', 'fd00::5']);
    expect(addressAllowed(listed, '10.1.2.3')).toBe(true);
    expect(addressAllowed(listed, '::ffff:10.1.2.3')).toBe(true);
    expect(addressAllowed(listed, 'fd00::5')).toBe(true);
    expect(addressAllowed(listed, '10.2.0.1')).toBe(false);
    expect(addressAllowed(listed, '127.0.0.1')).toBe(false);
    expect(webhookUrlProblem(listed, new URL('https://10.1.2.3/hook'))).toBeUndefined();
    expect(webhookUrlProblem(listed, new URL('http://10.1.2.3/hook'))).toBe('Must use https');
  });
});
