// Forwarder deposit addresses, through the whole service: with EVM_DEPOSIT_FACTORY_TEST and
// EVM_DEPOSIT_FORWARDER_TEST set, a session created by the API and paid on an EVM chain is shown its forwarder
// clone's CREATE2 address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositSalt } from '../../domain/addresses/depositSalt';
import { evmForwarderAddress } from '../../domain/addresses/depositForwarder';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

const contracts = {
  factory: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  implementation: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
} as const;

let service: TestService;
let merchant: TestMerchant;

beforeAll(async () => {
  service = await startTestService({
    env: { EVM_DEPOSIT_FACTORY_TEST: contracts.factory, EVM_DEPOSIT_FORWARDER_TEST: contracts.implementation },
  });
  merchant = await createTestMerchant(service.db.sql);
});
afterAll(() => service?.stop());

describe('a session with a test-mode deposit factory configured', () => {
  it("is shown its forwarder's address on every EVM chain, recorded as a forwarder address", async () => {
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id),
    });
    expect(created.status).toBe(201);
    const sessionId = created.body.data?.session_id as string;
    const expected = evmForwarderAddress(contracts, depositSalt(sessionId));
    for (const chain of ['base', 'arbitrum']) {
      const selected = await call(service.baseUrl, 'POST', '/checkout/sessions/select-payment', {
        apiKey: merchant.testKey,
        body: { session_id: sessionId, token: 'USDC', chain },
      });
      expect(selected).toMatchObject({ status: 200, body: { data: { deposit_address: expected } } });
    }
    expect(
      await service.db.sql`select evm_address, evm_scheme, evm_factory from deposit_addresses where session_id = ${sessionId}`,
    ).toEqual([{ evm_address: expected, evm_scheme: 'forwarder', evm_factory: contracts.factory }]);
  });
});
