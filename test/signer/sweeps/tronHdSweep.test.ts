// Tron HD deposit sweeps (signer/sweeps/tronHdSweep.ts, planned and advanced through the same Tron sweeper as
// forwarder batches) against the loopback stand-in of java-tron's HTTP API (test/support/tron/tronWalletNode.ts: its
// named stand-in behaviours keep TRX balances, play TransferContract payments and a TRC-20 transfer from any account)
// and a real Postgres: USDT at an HD address derived from a test mnemonic is topped up with the fee limit by the
// relayer and sent to the collector by the address's own key; an address holding the fee limit gets no top-up; a
// reverted transfer is posted and retaken by the next run, topped up by what it burned; a
// signer killed after the top-up or the transfer is signed sends each once; a forwarder batch and an HD sweep share
// one run; the unswept deposit age counts Tron HD deposits; without a collector the plan leaves HD addresses alone and says how many wait; TRON_DEPOSIT_COLLECTOR_<MODE>
// is checked at start, reaches the signer's Tron sweeper, and schedules the mode's Tron sweeps without a factory.
import { bytesToHex } from '@noble/hashes/utils.js';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { randomBytes } from 'node:crypto';
import { Registry } from 'prom-client';
import { utils as tronUtils } from 'tronweb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTronChainWriter } from '../../../signer/chainWrites/tronChainWriter';
import { tronRelayer, type TronRelayer } from '../../../signer/chainWrites/tronRelayer';
import { deriveTronPrivateKey } from '../../../domain/addresses/hdDerivation';
import { depositSeed } from '../../../domain/addresses/depositSeed';
import { topUpIntentId } from '../../../signer/sweeps/evmHdSweep';
import { createTronSweep, type TronSweepDeps } from '../../../signer/sweeps/tronSweep';
import type { Sql } from '../../../db/client';
import { findChainIntent } from '../../../db/repositories/chainIntents';
import { findCollectorSweep } from '../../../db/repositories/collectorSweeps';
import { unbalancedLedgerGroups } from '../../../db/repositories/ledger';
import { ACCOUNT, nativeAsset, tokenAsset } from '../../../domain/ledger/ledger';
import { TOKEN_TRANSFER_ENERGY } from '../../../domain/chains/tronEnergy';
import { loadChainsConfig } from '../../../config/chains';
import { loadConfig } from '../../../config/env';
import { createChainRegistry } from '../../../domain/chains/chainRegistry';
import { signerDepsFromConfig } from '../../../signer/worker';
import { evmSweepScopes } from '../../../worker/sweepSchedules';
import { registerEvmSweepMetrics } from '../../../observability/evmSweepMetrics';
import type { TestDatabase } from '../../support/database';
import type { TronWalletNode } from '../../support/tron/tronWalletNode';
import { ledgerBalance, planIds } from './evmSweepFixture';
import {
  tronAddress,
  tronForwarderDeposit,
  tronHdDeposit,
  standInSweepDeps,
  startTronSweepStandIn,
  stopTronSweepStandIn,
  sweepUntilLanded,
  type TronSweepFixture,
  type TronSweepStandIn,
} from './tronSweepFixture';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const CONTRACTS = { factory: tronAddress(), implementation: tronAddress() };
const COLLECTOR = tronAddress();
/** 5 TRX: what a TRC-20 transfer may burn, and so what an empty HD address is topped up with. */
/** TRON_HD_SWEEP_FEE_LIMIT_TRX's: an HD transfer's fee limit and its top-up. */
const FEE_LIMIT_SUN = 5_000_000n;
/** TRON_SWEEP_FEE_LIMIT_TRX's, for sweepMany only: an HD address is never topped up to it. */
const SWEEP_MANY_FEE_LIMIT_SUN = 100n * FEE_LIMIT_SUN;
/** What the stand-in burns for a transaction unless a test picks otherwise. */
const FEE_SUN = 345_000n;

/** A test mnemonic of this run's own. */
const seed = depositSeed({ mode: 'test', mnemonic: generateMnemonic(wordlist) });
let db: TestDatabase;
let signer: Sql;
let node: TronWalletNode;
let relayer: TronRelayer;
let fixture: TronSweepFixture;
/** Every deposit address the tests deposited to (HD or forwarder), and the HD ones. */
const addresses: string[] = [];
const hdAddresses: string[] = [];
/** TRX a test gave HD addresses from outside the service: no posting records its arrival. */
let unrecordedTrx = 0n;
let indices = 1;

let standIn: TronSweepStandIn | undefined;
beforeAll(async () => {
  standIn = await startTronSweepStandIn({ ...CONTRACTS, collector: COLLECTOR });
  ({ db, signer, node, relayer } = standIn);
  fixture = { sql: db.sql, node, contracts: CONTRACTS, token: { symbol: 'USDT', address: USDT } };
});
afterAll(() => stopTronSweepStandIn(standIn));
beforeEach(() => node.setPolicy(() => 'answer'));

// The ledger balances and agrees with the chain after every test: the collector holds what collector:tron says, the
// deposit addresses the tokens deposits:tron says, the HD addresses the TRX deposit_gas:tron says (less what a test
// gave them from outside), and every sun burned is a gas posting.
afterEach(async () => {
  expect(await unbalancedLedgerGroups(db.sql)).toEqual([]);
  const asset = tokenAsset('USDT', 'tron');
  expect(await ledgerBalance(db.sql, ACCOUNT.collector('tron'), asset)).toBe(node.balanceOf(USDT, COLLECTOR));
  expect(await ledgerBalance(db.sql, ACCOUNT.depositsOn('tron'), asset)).toBe(
    addresses.reduce((sum, a) => sum + node.balanceOf(USDT, a), 0n),
  );
  const trx = hdAddresses.reduce((sum, a) => sum + (node.trxOf(a) ?? 0n), 0n);
  expect(await ledgerBalance(db.sql, ACCOUNT.depositGasOn('tron'), nativeAsset('tron'))).toBe(trx - unrecordedTrx);
  const [burned] = await db.sql<
    { total: string }[]
  >`select coalesce(sum(fee_paid), 0)::text as total from chain_intents where chain = 'tron'`;
  expect(await ledgerBalance(db.sql, ACCOUNT.gasExpenseOn('tron'), nativeAsset('tron'))).toBe(BigInt(burned!.total));
});

const deps = (overrides: Partial<TronSweepDeps> = {}): TronSweepDeps =>
  standInSweepDeps(
    { sql: signer, relayer, feeLimitSun: SWEEP_MANY_FEE_LIMIT_SUN, hdFeeLimitSun: FEE_LIMIT_SUN, node, usdt: USDT, contracts: CONTRACTS },
    { depositSeed: seed, collector: COLLECTOR, ...overrides },
  );
/** A fresh sweeper each time, as a restarted signer would make. */
const sweeper = (overrides: Partial<TronSweepDeps> = {}) => createTronSweep(deps(overrides));

async function hdDepositTo(amount: bigint): Promise<string> {
  const address = await tronHdDeposit(fixture, seed, indices++, amount);
  addresses.push(address);
  hdAddresses.push(address);
  return address;
}

const sweepToEnd = (id: string) => sweepUntilLanded(sweeper, node, id);

/** Passes (each by a fresh sweeper, as after a restart) until `done` holds. */
async function passUntil(id: string, done: () => Promise<boolean>): Promise<void> {
  for (let pass = 0; pass < 30 && !(await done()); pass++) {
    await sweeper().advance(id);
    node.mine(1);
  }
  expect(await done()).toBe(true);
}

/** Which of these txIDs a block took: what the chain saw sent. */
const landedFrom = (txIds: Iterable<string>) => [...txIds].filter((txId) => node.landed(txId) !== undefined);

let runs = 0;
const runKey = () => `sweep_tron_hd-${runs++}`;

describe('Tron HD deposit sweeps', () => {
  it("tops an HD address up with the fee limit and sweeps its USDT to the collector with the address's own key", async () => {
    const hd = await hdDepositTo(2_500_000n);
    const ids = await planIds(sweeper(), runKey(), 'USDT');
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^sweep-hd:tron:/);
    expect(await sweepToEnd(ids[0]!)).toMatchObject({ status: 'finalized', moved: '2500000', gasWei: FEE_SUN.toString() });
    expect(node.balanceOf(USDT, COLLECTOR)).toBe(2_500_000n);
    expect(node.balanceOf(USDT, hd)).toBe(0n);
    // The relayer paid the address the fee limit with a TransferContract; the address burned its transfer's fee out of it.
    const sweep = (await findCollectorSweep(db.sql, ids[0]!))!;
    expect(sweep).toMatchObject({
      kind: 'hd',
      collector: COLLECTOR,
      topupRounds: 1,
      topupWei: FEE_LIMIT_SUN,
      topupGasWei: FEE_SUN,
      gasWei: FEE_SUN,
    });
    expect(sweep.addresses.map((a) => [a.address, a.sweptBaseUnits])).toEqual([[hd, 2_500_000n]]);
    const topUp = (await findChainIntent(db.sql, topUpIntentId(sweep)))!;
    expect(topUp).toMatchObject({
      id: `topup:tron:${sweep.id.slice('sweep-hd:tron:'.length)}`,
      status: 'finalized',
      sender: relayer.address,
      tronCall: { kind: 'transfer', to: hd, amount: FEE_LIMIT_SUN.toString() },
    });
    const payment = tronUtils.deserializeTx.deserializeTransaction('TransferContract', bytesToHex(node.rawData(topUp.signature!)!)) as {
      contract: Array<{ parameter: { value: Record<string, unknown> } }>;
    };
    expect(payment.contract[0]!.parameter.value).toMatchObject({
      owner_address: relayer.hexAddress.toUpperCase(),
      to_address: tronUtils.address.toHex(hd).toUpperCase(),
      amount: Number(FEE_LIMIT_SUN),
    });
    expect(node.trxOf(hd)).toBe(FEE_LIMIT_SUN - FEE_SUN);
    // The transfer was signed by the address itself, a TRC-20 transfer(collector, amount) under the fee limit.
    const transfer = (await findChainIntent(db.sql, sweep.id))!;
    expect(transfer).toMatchObject({
      sender: hd,
      tronCall: { contract: USDT, functionSelector: 'transfer(address,uint256)', feeLimit: FEE_LIMIT_SUN.toString() },
    });
    const raw = tronUtils.deserializeTx.deserializeTransaction('TriggerSmartContract', bytesToHex(node.rawData(transfer.signature!)!)) as {
      contract: Array<{ parameter: { value: Record<string, unknown> } }>;
      fee_limit: number;
    };
    expect(raw).toMatchObject({ fee_limit: Number(FEE_LIMIT_SUN) });
    expect(raw.contract[0]!.parameter.value).toMatchObject({ owner_address: tronUtils.address.toHex(hd).toUpperCase() });
    expect(await ledgerBalance(db.sql, ACCOUNT.relayer('tron'), nativeAsset('tron'))).toBe(-(FEE_LIMIT_SUN + FEE_SUN));
    // Landed is landed: another pass and another plan move nothing and post nothing twice.
    expect(await sweeper().advance(ids[0]!)).toMatchObject({ status: 'finalized', moved: '2500000' });
    expect(await planIds(sweeper(), runKey(), 'USDT')).toEqual([]);
  });

  it("makes the transfer's fee limit from its energy when that is below TRON_HD_SWEEP_FEE_LIMIT_TRX, and tops up only that", async () => {
    // Dynamic energy off: the measured transfer at the recorded 210 sun an energy, plus 50%.
    node.setChainParameter('getAllowDynamicEnergy', 0n);
    try {
      const hd = await hdDepositTo(900_000n);
      const [id] = await planIds(sweeper(), runKey(), 'USDT');
      const feeLimit = (TOKEN_TRANSFER_ENERGY * 210n * 15_000n + 9_999n) / 10_000n;
      expect(feeLimit).toBeLessThan(FEE_LIMIT_SUN);
      expect((await findChainIntent(db.sql, id!))?.tronCall).toMatchObject({ feeLimit: feeLimit.toString() });
      expect(await sweepToEnd(id!)).toMatchObject({ status: 'finalized', moved: '900000' });
      expect((await findCollectorSweep(db.sql, id!))!).toMatchObject({ topupRounds: 1, topupWei: feeLimit });
      expect(node.trxOf(hd)).toBe(feeLimit - FEE_SUN);
    } finally {
      node.setChainParameter('getAllowDynamicEnergy', 1n);
    }
  });

  it('sends no top-up to an address that holds the fee limit already', async () => {
    const hd = await hdDepositTo(700_000n);
    node.setTrx(hd, FEE_LIMIT_SUN);
    unrecordedTrx += FEE_LIMIT_SUN;
    const [id] = await planIds(sweeper(), runKey(), 'USDT');
    const landedBefore = node.landedCount();
    expect(await sweepToEnd(id!)).toMatchObject({ status: 'finalized', moved: '700000' });
    const sweep = (await findCollectorSweep(db.sql, id!))!;
    expect(sweep).toMatchObject({ topupRounds: 0, topupWei: null });
    expect(await findChainIntent(db.sql, topUpIntentId(sweep))).toBeUndefined();
    expect(node.landedCount()).toBe(landedBefore + 1);
    expect(node.trxOf(hd)).toBe(FEE_LIMIT_SUN - FEE_SUN);
  });

  it('leaves HD addresses alone without a collector, and says how many wait', async () => {
    await hdDepositTo(300_000n);
    const planned = await sweeper({ collector: undefined }).plan('USDT', runKey());
    expect(planned).toMatchObject({ sweepIds: [], hdSweeps: 0, hdWaiting: 1 });
    const [id] = await planIds(sweeper(), runKey(), 'USDT');
    expect(await sweepToEnd(id!)).toMatchObject({ status: 'finalized', moved: '300000' });
  });

  it("posts a reverted transfer's burned sun, and the next run takes the address again, topping up only what was burned", async () => {
    const hd = await hdDepositTo(800_000n);
    const [first] = await planIds(sweeper(), runKey(), 'USDT');
    await passUntil(first!, async () => (await findCollectorSweep(db.sql, first!))!.topupRounds === 1);
    const burned = 120_000n;
    expect(await sweepUntilLanded(sweeper, node, first!, () => ({ result: 'REVERT', fee: burned }))).toMatchObject({
      status: 'failed',
      gasWei: burned.toString(),
    });
    expect(node.balanceOf(USDT, hd)).toBe(800_000n);
    expect(node.trxOf(hd)).toBe(FEE_LIMIT_SUN - burned);
    const [second] = await planIds(sweeper(), runKey(), 'USDT');
    expect(second).not.toBe(first);
    expect(await sweepToEnd(second!)).toMatchObject({ status: 'finalized', moved: '800000' });
    expect((await findCollectorSweep(db.sql, second!))!).toMatchObject({ topupRounds: 1, topupWei: burned });
    expect(node.trxOf(hd)).toBe(FEE_LIMIT_SUN - FEE_SUN);
  });

  it("counts a Tron HD deposit no sweep has taken in the oldest unswept deposit's age", async () => {
    const registry = new Registry();
    registerEvmSweepMetrics(registry, db.sql);
    const age = async () =>
      Number(/^checkout_evm_unswept_deposit_age_seconds\{mode="test",chain="tron"\} (\S+)$/m.exec(await registry.metrics())?.[1]);
    expect(await age()).toBe(0);
    const hd = await hdDepositTo(600_000n);
    await db.sql`update deposits set created_at = now() - interval '1 hour' where to_address = ${hd}`;
    expect(await age()).toBeGreaterThanOrEqual(3600);
    const [id] = await planIds(sweeper(), runKey(), 'USDT');
    await sweepToEnd(id!);
    expect(await age()).toBe(0);
  });

  it('sweeps a forwarder batch and an HD address in one run, each to the collector', async () => {
    const forwarder = await tronForwarderDeposit(fixture, 1_100_000n);
    addresses.push(forwarder);
    const hd = await hdDepositTo(400_000n);
    const collected = node.balanceOf(USDT, COLLECTOR);
    const planned = await sweeper().plan('USDT', runKey());
    expect(planned).toMatchObject({ forwarderSweeps: 1, hdSweeps: 1, hdWaiting: 0 });
    const [batch, single] = planned.sweepIds as [string, string];
    expect([batch, single]).toEqual([expect.stringMatching(/^sweep:tron:/), expect.stringMatching(/^sweep-hd:tron:/)]);
    expect(await sweepToEnd(batch)).toMatchObject({ status: 'finalized', moved: '1100000' });
    expect(await sweepToEnd(single)).toMatchObject({ status: 'finalized', moved: '400000' });
    expect(node.balanceOf(USDT, COLLECTOR)).toBe(collected + 1_500_000n);
    expect([node.balanceOf(USDT, forwarder), node.balanceOf(USDT, hd)]).toEqual([0n, 0n]);
  });

  describe('a signer killed after a step is signed sends it once and loses nothing', () => {
    const relayerWriter = () => createTronChainWriter(deps());
    const hdWriter = async (sweepId: string) => {
      const {
        addresses: [swept],
      } = (await findCollectorSweep(db.sql, sweepId))!;
      const [row] = await db.sql<
        { derivation_index: string }[]
      >`select derivation_index from deposit_addresses where session_id = ${swept!.sessionId}`;
      return createTronChainWriter(deps({ relayer: tronRelayer(bytesToHex(deriveTronPrivateKey(seed, Number(row!.derivation_index)))) }));
    };

    it('after the top-up is signed', async () => {
      const hd = await hdDepositTo(1_200_000n);
      const [id] = await planIds(sweeper(), runKey(), 'USDT');
      const sweep = (await findCollectorSweep(db.sql, id!))!;
      // The first pass writes the top-up ahead; the signer signs it and dies before sending it.
      expect(await sweeper().advance(id!)).toEqual({ status: 'pending' });
      const signed = (await relayerWriter().sign(topUpIntentId(sweep))).intent;
      expect(signed.status).toBe('signed');
      expect(await sweepToEnd(id!)).toMatchObject({ status: 'finalized', moved: '1200000' });
      const topUp = (await findChainIntent(db.sql, topUpIntentId(sweep)))!;
      expect(topUp).toMatchObject({ signature: signed.signature, supersededSignatures: [] });
      expect(landedFrom([topUp.signature!, ...topUp.supersededSignatures])).toHaveLength(1);
      expect(node.trxOf(hd)).toBe(FEE_LIMIT_SUN - FEE_SUN);
    });

    it('after the transfer is signed', async () => {
      const hd = await hdDepositTo(900_000n);
      const [id] = await planIds(sweeper(), runKey(), 'USDT');
      await passUntil(id!, async () => (await findCollectorSweep(db.sql, id!))!.topupRounds === 1);
      expect((await findChainIntent(db.sql, id!))!.status).toBe('prepared');
      const signed = (await (await hdWriter(id!)).sign(id!)).intent;
      expect(signed.status).toBe('signed');
      const collected = node.balanceOf(USDT, COLLECTOR);
      expect(await sweepToEnd(id!)).toMatchObject({ status: 'finalized', moved: '900000' });
      const transfer = (await findChainIntent(db.sql, id!))!;
      expect(transfer).toMatchObject({ signature: signed.signature, supersededSignatures: [] });
      expect(node.balanceOf(USDT, COLLECTOR)).toBe(collected + 900_000n);
      expect(node.balanceOf(USDT, hd)).toBe(0n);
      expect((await findCollectorSweep(db.sql, id!))!.topupRounds).toBe(1);
    });
  });
});

describe('TRON_DEPOSIT_COLLECTOR_<MODE>', () => {
  it("is checked at start, and reaches the signer's Tron sweeper of its mode with the mode's deposit seed", async () => {
    expect(() => loadConfig({ TRON_DEPOSIT_COLLECTOR_TEST: '0x00000000000000000000000000000000000000cc' }, 'signer')).toThrow(
      /TRON_DEPOSIT_COLLECTOR_TEST: is not a Tron address/,
    );
    const env = {
      TRON_RELAYER_KEY_TEST: randomBytes(32).toString('hex'),
      TRON_DEPOSIT_COLLECTOR_TEST: COLLECTOR,
      DATABASE_URL: 'postgres://checkout_worker@127.0.0.1:1/none',
      TOKEN_USDT_TRON_TESTNET: `${USDT}:6`,
      TRON_HTTP_API_URL_TESTNET: node.url,
    };
    const signer = await signerDepsFromConfig(loadConfig(env, 'dev'), loadChainsConfig(env));
    const test = signer.tronSweepers?.test;
    expect(test?.collector).toBe(COLLECTOR);
    expect(test?.depositSeed).toEqual(signer.depositSeeds.test);
    await test?.sql.end();
  });

  it('schedules sweep_tron_<token>_<mode> for a mode with a Tron collector and no factory', () => {
    const workerEnv = {
      TRON_DEPOSIT_COLLECTOR_TEST: COLLECTOR,
      RPC_URLS_TRON_TESTNET: 'http://127.0.0.1:1/jsonrpc',
      TOKEN_USDT_TRON_TESTNET: `${USDT}:6`,
    };
    const scopes = evmSweepScopes(loadConfig(workerEnv, 'worker'), createChainRegistry(loadChainsConfig(workerEnv)));
    expect(scopes).toEqual([{ chain: 'tron', token: 'USDT', mode: 'test' }]);
  });
});
