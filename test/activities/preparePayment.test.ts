// Issue 12 item 7: test and live deposit addresses come from separate seeds, each with its own index
// sequence, so test keys never derive from live key material. Runs as the worker's database role.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mnemonicToSeedSync } from '@scure/bip39';
import { deriveEvmAddress } from '../../activities/depositAddresses/derive';
import { chainRegistryPaymentNetwork } from '../../activities/payments/paymentNetwork';
import { createPreparePayment } from '../../activities/payments/preparePayment';
import { loadChainsConfig } from '../../config/chains';
import { loadConfig } from '../../config/env';
import { createSql, type Sql } from '../../db/client';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { createChainRegistry } from '../../domain/chainRegistry';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';

const TEST_MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const LIVE_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

let db: TestDatabase;
let worker: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  worker = createSql(db.urlAs('checkout_worker'), { max: 2 });
});
afterAll(async () => {
  await worker?.end({ timeout: 5 });
  await db?.drop();
});

describe('deposit addresses per mode', () => {
  it('derives test addresses from the test seed and live ones from the live seed, each counting from 0', async () => {
    const { merchant } = await createTestMerchant(db.sql);
    const prepare = createPreparePayment({
      sql: worker,
      network: chainRegistryPaymentNetwork(createChainRegistry(loadChainsConfig({}))),
      depositMnemonics: { test: TEST_MNEMONIC, live: LIVE_MNEMONIC },
      liveTokenPrices: { USDC: { numerator: 1n, denominator: 1n, text: '1' } },
    });
    const addresses: Record<string, string> = {};
    for (const mode of ['test', 'live', 'test'] as const) {
      const record = { ...sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 }), mode };
      await insertSessionRecord(db.sql, record, 'pending');
      const instructions = await prepare(record, { token: 'USDC', chain: 'base' });
      addresses[`${mode}-${Object.keys(addresses).filter((k) => k.startsWith(mode)).length}`] = instructions.deposit_address;
    }
    const evm = (mnemonic: string, index: number) => deriveEvmAddress({ seed: mnemonicToSeedSync(mnemonic) }, index);
    expect(addresses).toEqual({ 'test-0': evm(TEST_MNEMONIC, 0), 'live-0': evm(LIVE_MNEMONIC, 0), 'test-1': evm(TEST_MNEMONIC, 1) });
    expect(await db.sql`select mode, derivation_index::int as index from deposit_addresses order by created_at`).toEqual([
      { mode: 'test', index: 0 },
      { mode: 'live', index: 0 },
      { mode: 'test', index: 1 },
    ]);
  });
});

describe('deposit seed configuration', () => {
  it('refuses the old single DEPOSIT_MNEMONIC and a test seed equal to the live one', () => {
    expect(() => loadConfig({ DEPOSIT_MNEMONIC: LIVE_MNEMONIC })).toThrow(/DEPOSIT_MNEMONIC: is split in two: set DEPOSIT_MNEMONIC_LIVE/);
    expect(() => loadConfig({ DEPOSIT_MNEMONIC_LIVE: LIVE_MNEMONIC, DEPOSIT_MNEMONIC_TEST: ` ${LIVE_MNEMONIC.replace(/ /g, '  ')} ` })).toThrow(
      'DEPOSIT_MNEMONIC_TEST: must differ from DEPOSIT_MNEMONIC_LIVE',
    );
    expect(loadConfig({ DEPOSIT_MNEMONIC_LIVE: LIVE_MNEMONIC }).depositMnemonics).toEqual({ test: undefined, live: LIVE_MNEMONIC });
  });
});
