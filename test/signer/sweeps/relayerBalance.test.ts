// The relayer's gas as a gauge: every sweep run reads the relayer's native coin on its chain (an EVM chain, or Tron's
// TRX through the stand-in of java-tron's HTTP API) through the signer's sweeper and keeps it with the relayer's
// address in relayer_balances, as the signer's role writes; the API's gauges show the balance in whole coins and the
// reading's age, and reconciliation finds relayer:<chain> at that address.
import { randomBytes } from 'node:crypto';
import { parseEther } from 'viem';
import { Registry } from 'prom-client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmSweepActivities, type PlanEvmSweepRequest } from '../../../signer/sweeps/evmSweeps';
import { relayerBalances } from '../../../db/repositories/relayerBalances';
import { registerEvmSweepMetrics } from '../../../observability/evmSweepMetrics';
import { tronRelayer } from '../../../signer/chainWrites/tronRelayer';
import { startDepositContractsChain, SWEEPER } from '../../contracts/depositContractsFixture';
import { createTestDatabase } from '../../support/database';
import { startTronWalletNode, type TronWalletNode } from '../../support/tron/tronWalletNode';
import { connectSigner, sweeperDeps, type EvmSweepFixture } from './evmSweepFixture';
import { standInSweepDeps } from './tronSweepFixture';

let f: EvmSweepFixture;
let tron: TronWalletNode;

beforeAll(async () => {
  const [contracts, db, node] = await Promise.all([startDepositContractsChain(), createTestDatabase(), startTronWalletNode()]);
  f = { contracts, db, signer: connectSigner(db) };
  tron = node;
});
afterAll(async () => {
  await f?.signer.end({ timeout: 5 });
  await Promise.all([f?.contracts.chain.stop(), f?.db.drop(), tron?.close()]);
});

async function gauge(registry: Registry, name: string, chain: string): Promise<number | undefined> {
  const found = new RegExp(`^${name}\\{mode="test",chain="${chain}"\\} (\\S+)$`, 'm').exec(await registry.metrics());
  return found ? Number(found[1]) : undefined;
}

describe("the relayer's gas", () => {
  it('is read at every sweep run, with or without deposits, and shown per chain in whole coins with its age', async () => {
    const token = await f.contracts.chain.deployToken({ symbol: 'USDC', decimals: 6 });
    const activities = createEvmSweepActivities({
      sweepers: { 'base:test': sweeperDeps(f, 'base', [{ symbol: 'USDC', address: token, decimals: 6 }]) },
    });
    // The plan logs what it planned, as an activity does: it runs in an activity's context.
    const planEvmSweep = (request: PlanEvmSweepRequest) => new MockActivityEnvironment().run(activities.planEvmSweep, request);
    const registry = new Registry();
    registerEvmSweepMetrics(registry, f.db.sql);
    expect(await gauge(registry, 'checkout_relayer_gas_balance', 'base')).toBeUndefined();

    await f.contracts.chain.fund(f.contracts.chain.account(SWEEPER).address, parseEther('2.5'));
    expect(await planEvmSweep({ chain: 'base', token: 'USDC', mode: 'test', runKey: 'quiet-run' })).toEqual({
      status: 'planned',
      sweepIds: [],
    });
    expect(await gauge(registry, 'checkout_relayer_gas_balance', 'base')).toBe(2.5);
    expect(await gauge(registry, 'checkout_relayer_gas_observed_age_seconds', 'base')).toBeLessThan(60);

    // Gas spent elsewhere shows at the next run; a chain without a sweeper has no series.
    await f.contracts.chain.fund(f.contracts.chain.account(SWEEPER).address, parseEther('0.01'));
    await planEvmSweep({ chain: 'base', token: 'USDC', mode: 'test', runKey: 'next-run' });
    expect(await gauge(registry, 'checkout_relayer_gas_balance', 'base')).toBe(0.01);
    expect(await planEvmSweep({ chain: 'polygon', token: 'USDC', mode: 'test', runKey: 'no-sweeper' })).toEqual({ status: 'no_relayer' });
    expect(await gauge(registry, 'checkout_relayer_gas_balance', 'polygon')).toBeUndefined();
  });

  it("records the Tron relayer's address and TRX at every Tron sweep run, shown in whole TRX", async () => {
    const relayer = tronRelayer(randomBytes(32).toString('hex'));
    const activities = createEvmSweepActivities({
      sweepers: {},
      tronSweepers: {
        test: standInSweepDeps({ sql: f.signer, relayer, feeLimitSun: 5_000_000n, node: tron, usdt: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }),
      },
    });
    const planEvmSweep = (request: PlanEvmSweepRequest) => new MockActivityEnvironment().run(activities.planEvmSweep, request);
    const registry = new Registry();
    registerEvmSweepMetrics(registry, f.db.sql);

    tron.setTrx(relayer.address, 1_250_000n);
    expect(await planEvmSweep({ chain: 'tron', token: 'USDT', mode: 'test', runKey: 'quiet-tron-run' })).toEqual({
      status: 'planned',
      sweepIds: [],
    });
    expect(await relayerBalances(f.db.sql)).toContainEqual(
      expect.objectContaining({ chain: 'tron', mode: 'test', address: relayer.address, balanceWei: 1_250_000n }),
    );
    expect(await gauge(registry, 'checkout_relayer_gas_balance', 'tron')).toBe(1.25);
  });
});
