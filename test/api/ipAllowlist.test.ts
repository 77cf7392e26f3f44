// IP allowlists (docs/api.md#rate-limits-and-ip-allowlists): a key with an allowlist is refused (403)
// from any other address; single addresses and CIDR ranges, IPv4 and IPv6; TRUST_PROXY decides
// whether X-Forwarded-For is believed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey, setApiKeyAllowedIps } from '../../db/repositories/apiKeys';
import { newSessionId } from '../../domain/wire/ids';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

// The same words as for an unknown key: no "valid key, wrong address" oracle.
const NOT_ALLOWED = { error: 'Invalid API key' };

let service: TestService;
let proxied: TestService;
let merchant: TestMerchant;

beforeAll(async () => {
  [service, proxied] = await Promise.all([
    startTestService({ worker: false }),
    startTestService({ worker: false, env: { TRUST_PROXY: '127.0.0.1/32,::1,10.0.0.0/8' } }),
  ]);
  merchant = await createTestMerchant(service.db.sql);
});
afterAll(() => Promise.all([service?.stop(), proxied?.stop()]));

/** A GET that passes authentication answers 404 for an unknown session; a refused key answers 403. */
const readUnknownSession = (target: TestService, apiKey: string, headers: Record<string, string> = {}) =>
  call(target.baseUrl, 'GET', `/checkout/sessions/${newSessionId()}`, {
    headers: { 'x-service-user-type': 'checkout', 'x-api-key': apiKey, ...headers },
  });

async function keyWithAllowlist(target: TestService, merchantId: string, allowedIps: string[] | null): Promise<string> {
  const key = await createApiKey(target.db.sql, merchantId, 'test');
  await setApiKeyAllowedIps(target.db.sql, key.id, allowedIps);
  return key.raw;
}

describe('API key IP allowlist', () => {
  it('lets a key without an allowlist in from anywhere', async () => {
    const response = await readUnknownSession(service, await keyWithAllowlist(service, merchant.merchant.id, null));
    expect(response.status).toBe(404);
  });

  it('refuses a key from an address outside its allowlist, on every endpoint', async () => {
    const apiKey = await keyWithAllowlist(service, merchant.merchant.id, ['10.0.0.0/8', '203.0.113.7', '2001:db8::/32']);
    const endpoints = [
      { method: 'POST', path: '/checkout/sessions', body: { merchant_id: merchant.merchant.id } },
      { method: 'GET', path: `/checkout/sessions/${newSessionId()}` },
      { method: 'GET', path: '/checkout/transactions/order-1?by_ext_transaction_id=true' },
    ];
    for (const { method, path, body } of endpoints) {
      const response = await call(service.baseUrl, method, path, { apiKey, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body).toEqual(NOT_ALLOWED);
    }
  });

  it('admits the client address as a single address, an IPv4 range, or among several entries', async () => {
    for (const allowlist of [['127.0.0.1'], ['127.0.0.0/8'], ['2001:db8::1', '198.51.100.0/24', '127.0.0.1/32']]) {
      const response = await readUnknownSession(service, await keyWithAllowlist(service, merchant.merchant.id, allowlist));
      expect(response.status, allowlist.join(',')).toBe(404);
    }
  });

  it('does not treat an IPv6 entry as matching an IPv4 client, and an empty allowlist admits no one', async () => {
    for (const allowlist of [['::1'], []]) {
      const response = await readUnknownSession(service, await keyWithAllowlist(service, merchant.merchant.id, allowlist));
      expect(response.status, JSON.stringify(allowlist)).toBe(403);
      expect(response.body).toEqual(NOT_ALLOWED);
    }
  });

  it('restricts only the key it is set on', async () => {
    await keyWithAllowlist(service, merchant.merchant.id, ['10.0.0.0/8']);
    const response = await readUnknownSession(service, merchant.testKey);
    expect(response.status).toBe(404);
  });

  it('refuses a valid key from the wrong address exactly as it refuses an unknown key', async () => {
    const apiKey = await keyWithAllowlist(service, merchant.merchant.id, ['10.0.0.0/8']);
    const wrongAddress = await readUnknownSession(service, apiKey);
    const unknown = await readUnknownSession(service, 'mk_test_0000000000000000000000000000000000000000');
    expect([wrongAddress.status, wrongAddress.body]).toEqual([unknown.status, unknown.body]);
  });

  it('still answers Invalid API key for a revoked key, whatever its allowlist', async () => {
    const key = await createApiKey(service.db.sql, merchant.merchant.id, 'test');
    await setApiKeyAllowedIps(service.db.sql, key.id, ['10.0.0.0/8']);
    await revokeApiKey(service.db.sql, key.id);
    const response = await readUnknownSession(service, key.raw);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'Invalid API key' });
  });

  it('ignores X-Forwarded-For unless the peer is a proxy listed in TRUST_PROXY', async () => {
    const apiKey = await keyWithAllowlist(service, merchant.merchant.id, ['2001:db8::/32']);
    const response = await readUnknownSession(service, apiKey, { 'x-forwarded-for': '2001:db8::5' });
    expect(response.status).toBe(403);
  });

  it('behind trusted proxies, matches the right-most address that is not a proxy (IPv6 ranges included) and nothing a client prepends', async () => {
    const owner = await createTestMerchant(proxied.db.sql);
    const apiKey = await keyWithAllowlist(proxied, owner.merchant.id, ['2001:db8::/32', '198.51.100.7']);
    const cases: Array<[string, number]> = [
      ['2001:db8::5', 404],
      ['198.51.100.7', 404],
      ['2001:db9::5', 403],
      ['127.0.0.1', 403],
      // The client wrote the first entry itself; the proxy appended the real address after it.
      ['2001:db8::5, 192.0.2.44', 403],
      ['192.0.2.44, 198.51.100.7', 404],
      // Two of our proxies in a row: the client is the address before them.
      ['192.0.2.44, 198.51.100.7, 10.1.2.3', 404],
      ['198.51.100.7, 2001:db9::5, 10.1.2.3', 403],
      // A malformed hop ends the walk at the last address our proxies vouch for: here the proxy itself.
      ['198.51.100.7, not-an-address, 10.1.2.3', 403],
    ];
    for (const [forwardedFor, status] of cases) {
      const response = await readUnknownSession(proxied, apiKey, { 'x-forwarded-for': forwardedFor });
      expect(response.status, forwardedFor).toBe(status);
    }
  });
});
