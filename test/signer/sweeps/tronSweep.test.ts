// Tron forwarder sweeps (signer/sweeps/tronSweep.ts) through the Tron chain writer, against the loopback stand-in
// of java-tron's HTTP API (test/support/tron/tronWalletNode.ts, whose named stand-in behaviour plays the factory's
// sweepMany over balances the test sets) and a real Postgres: deposits at two forwarder addresses swept by one
// sweepMany, the ledger moved from deposits:tron to collector:tron by the Swept logs with the burned sun as the
// relayer's gas, a relayer killed after signing that sends once, a reverted sweep whose addresses the next run takes,
// the fee limit made from the sweep's energy, a sweep waiting while the relayer cannot pay its energy, the burned sun
// posted exactly when delegated energy pays part, and the signer refusing to start with a relayer key and no HTTP API.
import { randomBytes } from 'node:crypto';
import { Registry } from 'prom-client';
import { utils as tronUtils } from 'tronweb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTronChainWriter } from '../../../signer/chainWrites/tronChainWriter';
import { tronRelayer, type TronRelayer } from '../../../signer/chainWrites/tronRelayer';
import { TronApiError } from '../../../activities/http/tronWalletApi';
import { createTronSweep, type TronSweepDeps } from '../../../signer/sweeps/tronSweep';
import { loadChainsConfig } from '../../../config/chains';
import { loadConfig } from '../../../config/env';
import { findChainIntent } from '../../../db/repositories/chainIntents';
import { findCollectorSweep } from '../../../db/repositories/collectorSweeps';
import { unbalancedLedgerGroups } from '../../../db/repositories/ledger';
import { createChainRegistry } from '../../../domain/chains/chainRegistry';
import { ACCOUNT, nativeAsset, tokenAsset } from '../../../domain/ledger/ledger';
import { evmSweepScheduleId } from '../../../domain/taskQueues';
import { signerDepsFromConfig } from '../../../signer/worker';
import { registerEvmSweepMetrics } from '../../../observability/evmSweepMetrics';
import { evmSweepScopes } from '../../../worker/sweepSchedules';
import type { TronOutcome, TronWalletNode } from '../../support/tron/tronWalletNode';
import { recordingActivity } from '../../support/recordingActivity';
import { SWEEP_FIRST_ADDRESS_ENERGY, SWEEP_MANY_BASE_ENERGY, TOKEN_TRANSFER_ENERGY } from '../../../domain/chains/tronEnergy';
import { ledgerBalance, planIds } from './evmSweepFixture';
import {
  tronAddress,
  tronForwarderDeposit,
  standInSweepDeps,
  startTronSweepStandIn,
  stopTronSweepStandIn,
  sweepUntilLanded,
  type TronSweepStandIn,
} from './tronSweepFixture';
import type { Sql } from '../../../db/client';
import type { TestDatabase } from '../../support/database';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const CONTRACTS = { factory: tronAddress(), implementation: tronAddress() };
const COLLECTOR = tronAddress();
const FEE_LIMIT_SUN = 1_000_000_000n;
const REVERT: TronOutcome = { result: 'REVERT', fee: 2_873_400n };
/** The recorded getchainparameters: getEnergyFee 210 sun, dynamic energy on with getDynamicEnergyMaxFactor 34000. */
const ENERGY_FEE_SUN = 210n;
/** A sweepMany of `n` first sweeps, the token's share at the dynamic-energy ceiling, burned at 210 sun with the 50% margin. */
const sweepFeeLimit = (n: bigint) =>
  ((SWEEP_MANY_BASE_ENERGY + n * SWEEP_FIRST_ADDRESS_ENERGY + (n * TOKEN_TRANSFER_ENERGY * 34_000n) / 10_000n) * ENERGY_FEE_SUN * 15_000n) /
  10_000n;

let db: TestDatabase;
let signer: Sql;
let node: TronWalletNode;
let relayer: TronRelayer;
/** Every forwarder address the tests deposited to. */
const addresses: string[] = [];

let standIn: TronSweepStandIn | undefined;
beforeAll(async () => {
  standIn = await startTronSweepStandIn({ ...CONTRACTS, collector: COLLECTOR });
  ({ db, signer, node, relayer } = standIn);
});
afterAll(() => stopTronSweepStandIn(standIn));

// The ledger balances and agrees with the chain after every test: the collector holds what collector:tron says, the
// forwarders what deposits:tron says, and the relayer burned what its gas postings say.
afterEach(async () => {
  expect(await unbalancedLedgerGroups(db.sql)).toEqual([]);
  const asset = tokenAsset('USDT', 'tron');
  expect(await ledgerBalance(db.sql, ACCOUNT.collector('tron'), asset)).toBe(node.balanceOf(USDT, COLLECTOR));
  expect(await ledgerBalance(db.sql, ACCOUNT.depositsOn('tron'), asset)).toBe(
    addresses.reduce((sum, a) => sum + node.balanceOf(USDT, a), 0n),
  );
  const [burned] = await db.sql<
    { total: string }[]
  >`select coalesce(sum(fee_paid), 0)::text as total from chain_intents where chain = 'tron'`;
  expect(await ledgerBalance(db.sql, ACCOUNT.gasExpenseOn('tron'), nativeAsset('tron'))).toBe(BigInt(burned!.total));
});

const deps = (overrides: Partial<TronSweepDeps> = {}): TronSweepDeps =>
  standInSweepDeps({ sql: signer, relayer, feeLimitSun: FEE_LIMIT_SUN, node, usdt: USDT, contracts: CONTRACTS }, overrides);
/** A fresh sweeper each time, as a restarted signer would make. */
const sweeper = (overrides: Partial<TronSweepDeps> = {}) => createTronSweep(deps(overrides));

async function depositTo(amount: bigint): Promise<string> {
  const address = await tronForwarderDeposit({ sql: db.sql, node, contracts: CONTRACTS, token: { symbol: 'USDT', address: USDT } }, amount);
  addresses.push(address);
  return address;
}

const sweepToEnd = (id: string, outcome?: (txId: string) => TronOutcome) => sweepUntilLanded(sweeper, node, id, outcome);

let runs = 0;
const runKey = () => `sweep_tron_usdt_test-${runs++}`;

beforeEach(() => node.setPolicy(() => 'answer'));

describe('Tron forwarder sweep', () => {
  it('sweeps two forwarder deposits in one sweepMany: the collector gets both, the ledger moves them by the Swept logs and posts the burned sun', async () => {
    const [a, b] = [await depositTo(1_500_000n), await depositTo(2_250_000n)];
    const landedBefore = node.landedCount();
    const ids = await planIds(sweeper(), runKey(), 'USDT');
    expect(ids).toHaveLength(1);
    expect(await sweepToEnd(ids[0]!)).toMatchObject({ status: 'finalized', moved: '3750000', gasWei: '345000' });
    expect(node.landedCount()).toBe(landedBefore + 1);
    expect(node.balanceOf(USDT, COLLECTOR)).toBe(3_750_000n);
    const sweep = await findCollectorSweep(db.sql, ids[0]!);
    expect(sweep).toMatchObject({ chain: 'tron', token: 'USDT', factory: CONTRACTS.factory, status: 'finalized', gasWei: 345_000n });
    // In byte order, as the repository lists them: base58 mixes cases, which a locale's order would fold together.
    expect(sweep?.addresses.map((x) => [x.address, x.sweptBaseUnits])).toEqual(
      [
        [a, 1_500_000n],
        [b, 2_250_000n],
      ].sort((x, y) => (String(x[0]) < String(y[0]) ? -1 : 1)),
    );
    // The relayer signed a sweepMany of both salts on the factory, its fee limit the energy of two first sweeps.
    const raw = tronUtils.deserializeTx.deserializeTransaction(
      'TriggerSmartContract',
      Buffer.from(node.rawData(sweep!.txHash!) as Uint8Array).toString('hex'),
    );
    expect(raw).toMatchObject({ fee_limit: Number(sweepFeeLimit(2n)) });
    const intent = await findChainIntent(db.sql, ids[0]!);
    expect(intent?.tronCall).toMatchObject({
      contract: CONTRACTS.factory,
      functionSelector: 'sweepMany(bytes32[],address)',
      feeLimit: sweepFeeLimit(2n).toString(),
    });
    expect(await ledgerBalance(db.sql, ACCOUNT.relayer('tron'), nativeAsset('tron'))).toBe(-345_000n);
    // Landed is landed: another pass and another plan move nothing and post nothing twice.
    expect(await sweeper().advance(ids[0]!)).toMatchObject({ status: 'finalized', moved: '3750000' });
    expect(await planIds(sweeper(), runKey(), 'USDT')).toEqual([]);
  });

  it('numbers a Swept log in its block as the indexer numbers logs, counting the sweeps before it in the block', async () => {
    await depositTo(100n);
    await depositTo(200n);
    const ids = await planIds(sweeper({ batchSize: 1 }), runKey(), 'USDT');
    expect(ids).toHaveLength(2);
    // Both sent before a block is produced: one block takes both.
    for (const id of ids) expect((await sweeper().advance(id)).status).toBe('submitted');
    for (const id of ids) await sweepToEnd(id);
    const rows = await db.sql<
      { block_number: bigint; last_log_index: number }[]
    >`select block_number, last_log_index from collector_sweeps where id in ${db.sql(ids)} order by batch`;
    expect(rows[0]!.block_number).toBe(rows[1]!.block_number);
    // Each sweep logs the token's Transfer, then Swept.
    expect(rows.map((r) => r.last_log_index)).toEqual([1, 3]);
  });

  it('a relayer killed after signing resumes from the row with a fresh writer, and the chain sees one transaction', async () => {
    await depositTo(400_000n);
    await depositTo(600_000n);
    const key = runKey();
    const [id] = await planIds(sweeper(), key, 'USDT');
    const signed = (await createTronChainWriter(deps()).sign(id!)).intent;
    expect(node.broadcasts.has(signed.signature!)).toBe(false);
    // A restarted signer: the retried plan finds its batch, a fresh sweeper sends the stored bytes.
    expect(await planIds(sweeper(), key, 'USDT')).toEqual([id]);
    const landedBefore = node.landedCount();
    expect(await sweepToEnd(id!)).toMatchObject({ status: 'finalized', moved: '1000000', txHash: signed.signature });
    expect(node.landedCount()).toBe(landedBefore + 1);
    expect((await findChainIntent(db.sql, id!))?.supersededSignatures).toEqual([]);
  });

  it('a reverted sweep moves nothing in the ledger but its burned sun, and the next run takes its addresses', async () => {
    const address = await depositTo(800_000n);
    const [deposits, collector] = [
      await ledgerBalance(db.sql, ACCOUNT.depositsOn('tron'), tokenAsset('USDT', 'tron')),
      node.balanceOf(USDT, COLLECTOR),
    ];
    const [id] = await planIds(sweeper(), runKey(), 'USDT');
    expect(await sweepToEnd(id!, () => REVERT)).toMatchObject({ status: 'failed', gasWei: REVERT.fee.toString() });
    expect(await ledgerBalance(db.sql, ACCOUNT.depositsOn('tron'), tokenAsset('USDT', 'tron'))).toBe(deposits);
    expect(await ledgerBalance(db.sql, ACCOUNT.collector('tron'), tokenAsset('USDT', 'tron'))).toBe(collector);
    expect(node.balanceOf(USDT, address)).toBe(800_000n);
    const [again] = await planIds(sweeper(), runKey(), 'USDT');
    expect(again).not.toBe(id);
    expect((await findCollectorSweep(db.sql, again!))?.addresses.map((a) => a.address)).toEqual([address]);
    expect(await sweepToEnd(again!)).toMatchObject({ status: 'finalized', moved: '800000' });
  });

  it("shows the oldest unswept Tron deposit's age and the collector's inventory as gauges", async () => {
    const registry = new Registry();
    registerEvmSweepMetrics(registry, db.sql);
    const gauge = async (pattern: string) => Number(new RegExp(`^${pattern} (\\S+)$`, 'm').exec(await registry.metrics())?.[1]);
    const age = 'checkout_evm_unswept_deposit_age_seconds\\{mode="test",chain="tron"\\}';
    const address = await depositTo(9_000_000n);
    await db.sql`update deposits set created_at = now() - interval '1 hour' where to_address = ${address}`;
    expect(await gauge(age)).toBeGreaterThanOrEqual(3600);
    const [id] = await planIds(sweeper(), runKey(), 'USDT');
    await sweepToEnd(id!);
    expect(await gauge(age)).toBe(0);
    expect(await gauge('checkout_collector_inventory_base_units\\{mode="test",chain="tron",asset="usdt:tron"\\}')).toBe(
      Number(node.balanceOf(USDT, COLLECTOR)),
    );
  });

  it('plans nothing when a balance cannot be read, and says which call failed', async () => {
    await depositTo(700_000n);
    node.setPolicy((path) =>
      path === '/wallet/triggerconstantcontract' ? { body: { result: { code: 'CONTRACT_EXE_ERROR' }, constant_result: [''] } } : 'answer',
    );
    const [before] = await db.sql<{ count: string }[]>`select count(*)::text as count from collector_sweeps`;
    await expect(planIds(sweeper(), runKey(), 'USDT')).rejects.toThrow(
      new TronApiError('malformed', '/wallet/triggerconstantcontract', 'balanceOf did not return a uint256 (CONTRACT_EXE_ERROR)'),
    );
    expect(await db.sql<{ count: string }[]>`select count(*)::text as count from collector_sweeps`).toEqual([before]);
    node.setPolicy(() => 'answer');
    const [id] = await planIds(sweeper(), runKey(), 'USDT');
    expect(await sweepToEnd(id!)).toMatchObject({ status: 'finalized', moved: '700000' });
  });

  it('holds a total below SWEEP_MIN_AMOUNT_TRON back', async () => {
    await depositTo(5_000_000n);
    expect(await planIds(sweeper({ minimumWholeTokens: 100 }), runKey(), 'USDT')).toEqual([]);
    const [id] = await planIds(sweeper(), runKey(), 'USDT');
    await sweepToEnd(id!);
  });
});

describe('Tron sweep energy', () => {
  it("takes the node's run of the sweepMany for its fee limit when it used more energy than the estimate, never above the cap", async () => {
    await depositTo(1_000n);
    node.setCallEnergy(400_000n);
    try {
      const [id] = await planIds(sweeper(), runKey(), 'USDT');
      expect((await findChainIntent(db.sql, id!))?.tronCall).toMatchObject({
        feeLimit: ((400_000n * ENERGY_FEE_SUN * 15n) / 10n).toString(),
      });
      expect(await sweepToEnd(id!)).toMatchObject({ status: 'finalized' });

      await depositTo(1_000n);
      const [capped] = await planIds(sweeper({ feeLimitSun: 50_000_000n }), runKey(), 'USDT');
      expect((await findChainIntent(db.sql, capped!))?.tronCall).toMatchObject({ feeLimit: '50000000' });
      expect(await sweepToEnd(capped!)).toMatchObject({ status: 'finalized' });
    } finally {
      node.setCallEnergy(undefined);
    }
  });

  it("waits, signing nothing, while the relayer's energy and TRX cannot cover the sweep, and is signed once energy is delegated to it", async () => {
    await depositTo(5_000n);
    const [id] = await planIds(sweeper(), runKey(), 'USDT');
    const used = node.energyUsedOf(relayer.address);
    node.setEnergy(relayer.address, { limit: used });
    const { environment, counted } = recordingActivity();
    try {
      const sent = node.broadcasts.size;
      for (let pass = 0; pass < 2; pass++) {
        const outcome = await environment.run(() => sweeper().advance(id!));
        expect(outcome).toEqual({
          status: 'pending',
          deferred: expect.stringMatching(
            /^the relayer holds 0 energy and 0 sun; the sweep needs \d+ energy, so \d+ sun to burn: stake or rent energy, or send it TRX$/,
          ),
        });
        node.mine(1);
      }
      expect(node.broadcasts.size).toBe(sent);
      expect((await findChainIntent(db.sql, id!))?.status).toBe('prepared');
      expect(counted).toEqual([
        { name: 'checkout_tron_sweeps_awaiting_energy', value: 1, tags: expect.objectContaining({ mode: 'test' }) },
        { name: 'checkout_tron_sweeps_awaiting_energy', value: 1, tags: expect.objectContaining({ mode: 'test' }) },
      ]);
    } finally {
      node.setEnergy(relayer.address, { limit: used + 1_000_000_000n });
    }
    expect(await sweepToEnd(id!)).toMatchObject({ status: 'finalized', moved: '5000' });
  });

  it('posts exactly the sun burned: energy the relayer holds burns nothing, the rest at getEnergyFee, bandwidth as net_fee', async () => {
    node.setTrx(relayer.address, 500_000_000n);
    const relayerBefore = await ledgerBalance(db.sql, ACCOUNT.relayer('tron'), nativeAsset('tron'));
    const spend = { result: 'SUCCESS', fee: 268_000n, energy: 170_000n } as const;

    // 100,000 energy left of what is delegated: the sweep's other 70,000 are burned at 210 sun, and its bandwidth.
    node.setEnergy(relayer.address, { limit: node.energyUsedOf(relayer.address) + 100_000n });
    await depositTo(7_000n);
    const [partly] = await planIds(sweeper(), runKey(), 'USDT');
    expect(await sweepToEnd(partly!, () => spend)).toMatchObject({
      status: 'finalized',
      gasWei: String(268_000n + 70_000n * ENERGY_FEE_SUN),
    });
    expect(node.trxOf(relayer.address)).toBe(500_000_000n - 268_000n - 70_000n * ENERGY_FEE_SUN);

    // Covered whole by delegated energy: only the bandwidth is burned, and that is what is posted.
    node.setEnergy(relayer.address, { limit: node.energyUsedOf(relayer.address) + 1_000_000_000n });
    await depositTo(8_000n);
    const [covered] = await planIds(sweeper(), runKey(), 'USDT');
    expect(await sweepToEnd(covered!, () => spend)).toMatchObject({ status: 'finalized', gasWei: '268000' });

    // relayer:tron moved by what the relayer's TRX did on chain, to the sun.
    expect(await ledgerBalance(db.sql, ACCOUNT.relayer('tron'), nativeAsset('tron'))).toBe(
      relayerBefore - (500_000_000n - (node.trxOf(relayer.address) ?? 0n)),
    );
  });
});

describe('Tron sweep configuration', () => {
  const env = {
    TRON_RELAYER_KEY_TEST: randomBytes(32).toString('hex'),
    DATABASE_URL: 'postgres://checkout_worker@127.0.0.1:1/none',
    TOKEN_USDT_TRON_TESTNET: `${USDT}:6`,
  };

  it('refuses to start a signer given TRON_RELAYER_KEY_<MODE> without TRON_HTTP_API_URL_<NETWORK>', async () => {
    await expect(signerDepsFromConfig(loadConfig(env, 'dev'), loadChainsConfig(env))).rejects.toThrow(
      /invalid configuration: TRON_RELAYER_KEY_TEST: needs TRON_HTTP_API_URL_TESTNET/,
    );
    const configured = { ...env, TRON_HTTP_API_URL_TESTNET: node.url, TRON_SWEEP_FEE_LIMIT_TRX: '250' };
    const signer = await signerDepsFromConfig(loadConfig(configured, 'dev'), loadChainsConfig(configured));
    const test = signer.tronSweepers?.test;
    expect(test).toMatchObject({
      mode: 'test',
      feeLimitSun: 250_000_000n,
      minimumWholeTokens: 100,
      tokens: [{ symbol: 'USDT', address: USDT, decimals: 6 }],
    });
    expect(test?.relayer.address).toBe(tronRelayer(env.TRON_RELAYER_KEY_TEST).address);
    expect(signer.tronSweepers?.live).toBeUndefined();
    await test?.sql.end();
    expect(() => loadConfig({ TRON_SWEEP_FEE_LIMIT_TRX: '20000' }, 'worker')).toThrow(/TRON_SWEEP_FEE_LIMIT_TRX/);
  });

  it('schedules sweep_tron_<token>_<mode> for a mode with a Tron factory and an indexed Tron network', () => {
    const workerEnv = {
      TRON_DEPOSIT_FACTORY_TEST: CONTRACTS.factory,
      TRON_DEPOSIT_FORWARDER_TEST: CONTRACTS.implementation,
      RPC_URLS_TRON_TESTNET: 'http://127.0.0.1:1/jsonrpc',
      TOKEN_USDT_TRON_TESTNET: `${USDT}:6`,
    };
    const scopes = evmSweepScopes(loadConfig(workerEnv, 'worker'), createChainRegistry(loadChainsConfig(workerEnv)));
    expect(scopes).toContainEqual({ chain: 'tron', token: 'USDT', mode: 'test' });
    expect(scopes.every((scope) => scope.chain === 'tron')).toBe(true);
    expect(evmSweepScheduleId({ chain: 'tron', token: 'USDT', mode: 'test' })).toBe('sweep_tron_usdt_test');
    expect(evmSweepScheduleId({ chain: 'base', token: 'USDC', mode: 'live' })).toBe('sweep_evm_base_usdc_live');
  });
});
