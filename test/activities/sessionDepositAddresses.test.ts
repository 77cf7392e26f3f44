// Test and live deposit addresses come from separate seeds, each with its own index
// sequence; the worker derives EVM and Tron addresses from xpubs alone and takes the Solana address from the signer,
// and a session's index still gives the very addresses the seed gave before the split. Where the mode
// has forwarder contracts, a new session's EVM and Tron addresses are its CREATE2 clones instead, and sessions given
// HD addresses before keep them. Runs as the worker's role, the signer's pool as the signer's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockActivityEnvironment } from '@temporalio/testing';
import { mnemonicToSeedSync } from '@scure/bip39';
import { deriveDepositAddresses, depositXpubsFromSeeds, deriveEvmAddress, deriveSolanaAddress } from '../../domain/addresses/hdDerivation';
import { keepSolanaAddressPoolAhead, POOL_AHEAD } from '../../signer/depositAddresses/solanaAddressPool';
import { depositSeeds } from '../../domain/addresses/depositSeed';
import { chainRegistryPaymentNetwork } from '../../activities/payments/paymentNetwork';
import { createChoosePayment, type ChosenPayment } from '../../activities/payments/choosePayment';
import { createSignerActivities } from '../../signer/activities';
import { loadChainsConfig } from '../../config/chains';
import { createSql, type Sql } from '../../db/client';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import { depositSalt } from '../../domain/addresses/depositSalt';
import {
  evmForwarderAddress,
  NO_DEPOSIT_FORWARDERS,
  tronForwarderAddress,
  type DepositForwarders,
} from '../../domain/addresses/depositForwarder';
import { tronAddressFromEvmHex } from '../../domain/addresses/tron';
import type { PaymentSelection } from '../../domain/wire/payment';
import type { Mode, SessionRecord } from '../../domain/wire/session';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';

const TEST_MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const LIVE_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const ONE = { numerator: 1n, denominator: 1n, text: '1' };

let db: TestDatabase;
let worker: Sql;
let signerSql: Sql;
let merchantId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  worker = createSql(db.urlAs('checkout_worker'), { max: 2 });
  signerSql = createSql(db.urlAs('checkout_signer'), { max: 2 });
  merchantId = (await createTestMerchant(db.sql)).merchant.id;
});
afterAll(async () => {
  await Promise.all([worker?.end({ timeout: 5 }), signerSql?.end({ timeout: 5 })]);
  await db?.drop();
});

// The signer holds the seeds; the worker is given only their xpubs, as in production.
const seeds = depositSeeds({ test: TEST_MNEMONIC, live: LIVE_MNEMONIC });
const signer = {
  deriveSolanaDepositAddress: (request: { mode: Mode; index: number }) =>
    createSignerActivities({ depositSeeds: seeds, addressPool: signerSql }).deriveSolanaDepositAddress(request),
};
const workerDeps = (depositForwarders: DepositForwarders = NO_DEPOSIT_FORWARDERS) => ({
  sql: worker,
  depositXpubs: depositXpubsFromSeeds(seeds),
  depositForwarders,
});
const choose = (deps = workerDeps()) =>
  createChoosePayment({
    ...deps,
    network: chainRegistryPaymentNetwork(createChainRegistry(loadChainsConfig({}))),
    liveTokenPrices: { USDC: ONE, USDT: ONE },
  });
const SOLANA: PaymentSelection = { token: 'USDC', chain: 'solana' };

/** The payment instructions of a choice made with what the worker has (and the signer's answer, where given). */
const prepare =
  (deps = workerDeps()) =>
  async (record: SessionRecord, selection: PaymentSelection, solanaAddressFromSigner?: string) => {
    const chosen = await choose(deps)({ record, selection, ...(solanaAddressFromSigner !== undefined ? { solanaAddressFromSigner } : {}) });
    if ('prepared' in chosen) return chosen.prepared;
    throw new Error(`the signer must derive the Solana address of index ${chosen.solanaAddressNeeded.index}`);
  };

/** The index whose Solana address the choice asked the signer for. */
function neededIndex(chosen: ChosenPayment): number {
  if (!('solanaAddressNeeded' in chosen)) throw new Error(`expected the signer to be asked, got ${JSON.stringify(chosen)}`);
  return chosen.solanaAddressNeeded.index;
}

const derivationIndex = async (record: SessionRecord) =>
  (
    await db.sql<{ index: number }[]>`select derivation_index::int as index from deposit_addresses where session_id = ${record.sessionId}`
  )[0]!.index;

async function newSession(mode: Mode): Promise<SessionRecord> {
  const record = { ...sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 }), mode };
  await insertSessionRecord(db.sql, record, 'pending');
  return record;
}

/** The Solana pair as the workflow prepares it (workflows/paymentPreparation.ts): the signer asked only for an index the worker has no address for. */
async function prepareSolana(record: SessionRecord, deps = workerDeps()) {
  const chosen = await choose(deps)({ record, selection: SOLANA });
  if ('prepared' in chosen) return chosen.prepared;
  return prepare(deps)(
    record,
    SOLANA,
    await signer.deriveSolanaDepositAddress({ mode: record.mode, index: chosen.solanaAddressNeeded.index }),
  );
}

describe('deposit addresses per mode', () => {
  it('derives test addresses from the test seed and live ones from the live seed, each counting from 0', async () => {
    const addresses: Record<string, string> = {};
    for (const mode of ['test', 'live', 'test'] as const) {
      const instructions = await prepare()(await newSession(mode), { token: 'USDC', chain: 'base' });
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

describe('deposit addresses from xpubs and the signer', () => {
  it('gives a session index the same three addresses the seed derivation gave before the signer existed', async () => {
    for (let n = 0; n < 2; n += 1) {
      const record = await newSession('live');
      const evm = await prepare()(record, { token: 'USDC', chain: 'base' });
      const tron = await prepare()(record, { token: 'USDT', chain: 'tron' });
      const solana = await prepareSolana(record);
      const [row] = await db.sql<
        { index: number }[]
      >`select derivation_index::int as index from deposit_addresses where session_id = ${record.sessionId}`;
      expect({ evm: evm.deposit_address, tron: tron.deposit_address, solana: solana.deposit_address }).toEqual(
        deriveDepositAddresses(mnemonicToSeedSync(LIVE_MNEMONIC), row!.index),
      );
    }
  });

  it('writes the Solana address once, only as the signer recorded it, and never changes it', async () => {
    // Past what earlier derivations pooled: the signer has to be asked.
    await db.sql`select setval('deposit_address_index_seq', 100000)`;
    const record = await newSession('live');
    const index = neededIndex(await choose()({ record, selection: SOLANA }));
    expect(index).toBe(await derivationIndex(record));
    // An answer the signer did not record in the pool is shown to nobody, however well-formed.
    const unrecorded = deriveSolanaAddress(mnemonicToSeedSync(TEST_MNEMONIC), index);
    await expect(
      new MockActivityEnvironment().run(choose(), { record, selection: SOLANA, solanaAddressFromSigner: unrecorded }),
    ).rejects.toMatchObject({ type: 'SolanaAddressUnrecorded', message: expect.stringContaining('is not what the signer recorded') });
    expect(await db.sql`select solana_address from deposit_addresses where session_id = ${record.sessionId}`).toEqual([
      { solana_address: null },
    ]);
    const first = await prepareSolana(record);
    const other = await signer.deriveSolanaDepositAddress({ mode: 'live', index: 999 });
    expect((await prepare()(record, { token: 'USDC', chain: 'solana' }, other)).deposit_address).toBe(first.deposit_address);
    expect(await choose()({ record, selection: SOLANA })).toMatchObject({ prepared: { deposit_address: first.deposit_address } });
  });

  it('refuses a mode whose xpubs the worker was not given, naming the variables', async () => {
    const withoutLive = prepare({ ...workerDeps(), depositXpubs: { ...depositXpubsFromSeeds(seeds), live: undefined } });
    await expect(withoutLive(await newSession('live'), { token: 'USDC', chain: 'base' })).rejects.toThrow(
      'live deposit addresses need DEPOSIT_XPUB_EVM_LIVE and DEPOSIT_XPUB_TRON_LIVE (npm run signer -- --print-xpubs prints them)',
    );
  });

  it('the signer refuses live Solana addresses without a live seed', async () => {
    const testOnly = createSignerActivities({ depositSeeds: depositSeeds({ test: TEST_MNEMONIC, live: undefined }) });
    await expect(testOnly.deriveSolanaDepositAddress({ mode: 'live', index: 0 })).rejects.toThrow(
      'the signer was given no DEPOSIT_MNEMONIC_LIVE',
    );
  });
});

describe('forwarder deposit addresses', () => {
  const evm = {
    factory: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    implementation: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  } as const;
  const tron = {
    factory: tronAddressFromEvmHex(evm.factory.toLowerCase()),
    implementation: tronAddressFromEvmHex(evm.implementation.toLowerCase()),
  };
  const forwarders = (mode: Mode, families: Partial<DepositForwarders[Mode]>): DepositForwarders => ({
    ...NO_DEPOSIT_FORWARDERS,
    [mode]: { evm: undefined, tron: undefined, ...families },
  });
  const indexOf = async (sessionId: string) =>
    (await db.sql<{ index: number }[]>`select derivation_index::int as index from deposit_addresses where session_id = ${sessionId}`)[0]!
      .index;
  const row = async (sessionId: string) =>
    (await db.sql`select evm_scheme, evm_factory, tron_scheme, tron_factory from deposit_addresses where session_id = ${sessionId}`)[0];

  it("gives a new session its clones' addresses, one for every EVM chain, recording the scheme and factory", async () => {
    const deps = workerDeps(forwarders('live', { evm, tron }));
    const record = await newSession('live');
    const salt = depositSalt(record.sessionId);
    const onBase = await prepare(deps)(record, { token: 'USDC', chain: 'base' });
    const onPolygon = await prepare(deps)(record, { token: 'USDC', chain: 'polygon' });
    const onTron = await prepare(deps)(record, { token: 'USDT', chain: 'tron' });
    expect([onBase.deposit_address, onPolygon.deposit_address]).toEqual([evmForwarderAddress(evm, salt), evmForwarderAddress(evm, salt)]);
    expect(onTron.deposit_address).toBe(tronForwarderAddress(tron, salt));
    expect(await row(record.sessionId)).toEqual({
      evm_scheme: 'forwarder',
      evm_factory: evm.factory,
      tron_scheme: 'forwarder',
      tron_factory: tron.factory,
    });
    // Solana keeps its HD address from the session's index, which is reserved all the same.
    const index = await indexOf(record.sessionId);
    expect((await prepareSolana(record, deps)).deposit_address).toBe(await signer.deriveSolanaDepositAddress({ mode: 'live', index }));
  });

  it('needs no xpub where both families have forwarders, and still refuses a family left on HD without one', async () => {
    const noLiveXpubs = { ...depositXpubsFromSeeds(seeds), live: undefined };
    const both = prepare({ ...workerDeps(forwarders('live', { evm, tron })), depositXpubs: noLiveXpubs });
    const record = await newSession('live');
    expect((await both(record, { token: 'USDC', chain: 'ethereum' })).deposit_address).toBe(
      evmForwarderAddress(evm, depositSalt(record.sessionId)),
    );
    const evmOnly = prepare({ ...workerDeps(forwarders('live', { evm })), depositXpubs: noLiveXpubs });
    await expect(evmOnly(await newSession('live'), { token: 'USDC', chain: 'base' })).rejects.toThrow(
      'live deposit addresses need DEPOSIT_XPUB_EVM_LIVE',
    );
  });

  it('keeps HD addresses for a family without forwarders, and for sessions given them before; every address stays watched', async () => {
    const before = await newSession('live');
    const hd = await prepare()(before, { token: 'USDC', chain: 'base' });
    const deps = workerDeps(forwarders('live', { evm }));
    const after = await newSession('live');
    const [hdAgain, forwarder, tronHd] = [
      await prepare(deps)(before, { token: 'USDC', chain: 'arbitrum' }),
      await prepare(deps)(after, { token: 'USDC', chain: 'base' }),
      await prepare(deps)(after, { token: 'USDT', chain: 'tron' }),
    ];
    expect(hdAgain.deposit_address).toBe(hd.deposit_address);
    expect(forwarder.deposit_address).toBe(evmForwarderAddress(evm, depositSalt(after.sessionId)));
    expect(await row(before.sessionId)).toEqual({ evm_scheme: 'hd', evm_factory: null, tron_scheme: 'hd', tron_factory: null });
    expect(await row(after.sessionId)).toEqual({
      evm_scheme: 'forwarder',
      evm_factory: evm.factory,
      tron_scheme: 'hd',
      tron_factory: null,
    });
    expect(tronHd.deposit_address).toBe(deriveDepositAddresses(mnemonicToSeedSync(LIVE_MNEMONIC), await indexOf(after.sessionId)).tron);
    // The indexers watch deposit_watches alone, whatever the scheme.
    expect(
      await db.sql`select session_id, chain, address from deposit_watches where session_id in ${db.sql([before.sessionId, after.sessionId])} order by address`,
    ).toEqual(
      expect.arrayContaining([
        { session_id: before.sessionId, chain: 'base', address: hd.deposit_address },
        { session_id: before.sessionId, chain: 'arbitrum', address: hd.deposit_address },
        { session_id: after.sessionId, chain: 'base', address: forwarder.deposit_address },
        { session_id: after.sessionId, chain: 'tron', address: tronHd.deposit_address },
      ]),
    );
  });
});

describe('Solana addresses derived ahead, so choosing a Solana pair waits for no signer activity', () => {
  it("a signer derivation fills the pool with the next indexes' addresses, and a later session takes its own from it", async () => {
    const pooling = createSignerActivities({ depositSeeds: seeds, addressPool: signerSql });
    const poolSize = async () =>
      (await db.sql<{ n: number }[]>`select count(*)::int as n from solana_deposit_address_pool where mode = 'test'`)[0]!.n;
    const first = await newSession('test');
    const index = neededIndex(await choose()({ record: first, selection: SOLANA }));
    expect(await pooling.deriveSolanaDepositAddress({ mode: 'test', index })).toBe(deriveSolanaAddress(seeds.test!, index));
    // The derived index itself, recorded before the answer, and the next POOL_AHEAD.
    expect(await poolSize()).toBe(POOL_AHEAD + 1);

    // The next session's address comes from the pool, stored with the session: the signer is not asked.
    const second = await newSession('test');
    const fromPool = await prepare()(second, SOLANA);
    const secondIndex = await derivationIndex(second);
    expect(secondIndex).toBeGreaterThan(index);
    expect(fromPool.deposit_address).toBe(deriveSolanaAddress(seeds.test!, secondIndex));
    expect(await db.sql`select solana_address from deposit_addresses where session_id = ${second.sessionId}`).toEqual([
      { solana_address: fromPool.deposit_address },
    ]);

    // Deep in the pool a derivation adds nothing; past half of it, the pool reaches POOL_AHEAD beyond it again.
    await pooling.deriveSolanaDepositAddress({ mode: 'test', index: index + 1 });
    expect(await poolSize()).toBe(POOL_AHEAD + 1);
    await pooling.deriveSolanaDepositAddress({ mode: 'test', index: index + POOL_AHEAD / 2 + 1 });
    expect(await poolSize()).toBe(POOL_AHEAD + POOL_AHEAD / 2 + 2);
  });

  it("the signer's keeper holds the pool POOL_AHEAD past the mode's sequence, so new sessions need not ask the signer", async () => {
    // The sequence moved past the pool, as a burst of sessions would move it.
    const [{ top }] =
      (await db.sql`select max(derivation_index)::int as top from solana_deposit_address_pool where mode = 'test'`) as unknown as [
        { top: number },
      ];
    await db.sql`select setval('deposit_address_test_index_seq', ${top + 10})`;
    expect(neededIndex(await choose()({ record: await newSession('test'), selection: SOLANA }))).toBe(top + 11);

    const warnings: string[] = [];
    const keeper = keepSolanaAddressPoolAhead(signerSql, seeds, (message) => warnings.push(message));
    try {
      await expect
        .poll(
          async () => (await db.sql`select max(derivation_index)::int as top from solana_deposit_address_pool where mode = 'test'`)[0]!.top,
        )
        .toBe(top + 11 + POOL_AHEAD);
      const next = await newSession('test');
      expect((await prepare()(next, SOLANA)).deposit_address).toBe(deriveSolanaAddress(seeds.test!, top + 12));
      expect(await derivationIndex(next)).toBe(top + 12);
      // The live mode has a seed too: its pool is kept ahead of its own sequence, by the same pass after the test mode's.
      await expect
        .poll(async () => (await db.sql`select count(*)::int as n from solana_deposit_address_pool where mode = 'live'`)[0]!.n)
        .toBeGreaterThanOrEqual(POOL_AHEAD);
    } finally {
      await keeper.stop();
    }
    expect(warnings).toEqual([]);
  });
});
