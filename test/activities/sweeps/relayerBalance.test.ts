// The relayer's gas as a gauge: every sweep run reads the relayer's native coin on its chain
// through the signer's sweeper and keeps it in relayer_balances, as the signer's role writes; the API's gauges show
// the balance in whole coins and the reading's age.
import { parseEther } from 'viem';
import { Registry } from 'prom-client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmSweepActivities, type PlanEvmSweepRequest } from '../../../activities/sweeps/evmSweeps';
import { registerEvmSweepMetrics } from '../../../observability/evmSweepMetrics';
import { startDepositContractsChain, SWEEPER } from '../../contracts/depositContractsFixture';
import { createTestDatabase } from '../../support/database';
import { connectSigner, sweeperDeps, type EvmSweepFixture } from './evmSweepFixture';

let f: EvmSweepFixture;

beforeAll(async () => {
  const [contracts, db] = await Promise.all([startDepositContractsChain(), createTestDatabase()]);
  f = { contracts, db, signer: connectSigner(db) };
});
afterAll(async () => {
  await f?.signer.end({ timeout: 5 });
  await Promise.all([f?.contracts.chain.stop(), f?.db.drop()]);
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
});
