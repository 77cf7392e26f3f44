// Reconciliation and the treasury's figures as operators see them: `ledger reconcile` (test/support/adminCli.ts) reads the
// local Solana chain and reports a treasury funded outside the service, exiting 3; `treasury record-funding` records
// the top-up from its landed transaction, after which it reports none; `--last` and `treasury status` show the stored
// run; the API's internal /metrics carries the treasury's gauges.
import type { Address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postLedger } from '../../db/repositories/ledger';
import { adminCli, expectOneLineError } from '../support/adminCli';
import { createTestMerchant } from '../support/factories';
import { insertTestPayout } from '../support/payouts';
import { startTestService, type TestService } from '../support/service';
import { startTreasuryChain, type TreasuryChain } from '../support/treasuryChain';

let service: TestService;
let solana: TreasuryChain;
let treasury: Address;
let topUp: string;
let chainEnv: Record<string, string>;
const cli = adminCli(() => service);

beforeAll(async () => {
  service = await startTestService({ worker: false });
  solana = await startTreasuryChain(12_500_000n);
  ({ treasury, topUp, env: chainEnv } = solana);
  const { merchant } = await createTestMerchant(service.db.sql);
  await insertTestPayout(service.db.sql, merchant.id, { status: 'awaiting_liquidity', amount: 2_000_000n, ageMinutes: 15 });
});
afterAll(async () => {
  await solana?.stop();
  await service?.stop();
});

const metrics = async () => (await fetch(`${service.internalUrl}/metrics`)).text();

// Each test runs several CLI processes: seconds each on a loaded machine.
describe('checkout-admin ledger reconcile and treasury record-funding', { timeout: 180_000 }, () => {
  it('without a treasury address, says which variables it needs', async () => {
    expectOneLineError(
      await cli.run(['ledger', 'reconcile']),
      1,
      /no treasury to read: set SOLANA_TREASURY_ADDRESS_TEST or SOLANA_TREASURY_ADDRESS_LIVE/,
    );
    expectOneLineError(await cli.run(['ledger', 'reconcile', '--last']), 1, /no reconciliation has run yet/);
  });

  it('reports an unrecorded top-up with exit code 3, and none once it is recorded', async () => {
    const found = await cli.run(['ledger', 'reconcile'], chainEnv);
    expect(found.code, found.stderr).toBe(3);
    expect(found.stdout).toMatch(/^test: reconciled at \S+ \(run \d+\): 1 difference$/m);
    expect(found.stdout).toMatch(/treasury:solana\s+usdc:solana\s+0\.000000\s+12\.500000\s+12\.500000/);
    expect(found.stdout).toMatch(/treasury:solana\s+sol:solana\s+0\.000000000\s+0\.000000000\s+-/);
    expect(await metrics()).toMatch(
      /^checkout_reconciliation_differences\{mode="test",account="treasury:solana",asset="usdc:solana"\} 1$/m,
    );
    expect(await metrics()).toMatch(/^checkout_reconciliation_differences\{mode="test",account="treasury:solana",asset="sol:solana"\} 0$/m);
    expect(await metrics()).toMatch(
      /^checkout_reconciliation_difference_base_units\{mode="test",account="treasury:solana",asset="usdc:solana"\} 12500000$/m,
    );

    const recorded = await cli.run(['treasury', 'record-funding', '--mode', 'test', '--signature', topUp], chainEnv);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toContain(`test treasury ${treasury}: recorded treasury-funding:${topUp}: 12.500000 usdc:solana`);
    expectOneLineError(
      await cli.run(['treasury', 'record-funding', '--mode', 'live', '--signature', topUp], chainEnv),
      1,
      /no live treasury to read: set SOLANA_TREASURY_ADDRESS_LIVE/,
    );

    const clean = await cli.run(['ledger', 'reconcile', '--json'], chainEnv);
    expect(clean.code, clean.stderr).toBe(0);
    const out = JSON.parse(clean.stdout) as {
      runs: Array<{
        mode: string;
        differences: unknown[];
        balances: Array<{ account: string; asset: string; ledger: string; observed: string }>;
      }>;
    };
    expect(out.runs).toHaveLength(1);
    expect(out.runs[0]!.differences).toEqual([]);
    expect(out.runs[0]!.balances).toContainEqual({
      account: 'treasury:solana',
      asset: 'usdc:solana',
      ledger: '12500000',
      observed: '12500000',
    });
  });

  it('--last, treasury status and /metrics show the last run without reading the chain', async () => {
    const last = await cli.run(['ledger', 'reconcile', '--last']);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout).toMatch(/^test: reconciled at \S+ \(run \d+\): no differences$/m);

    const status = await cli.run(['treasury', 'status']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(
      /^ {2}on chain at \S+: 12\.500000 usdc:solana, 0\.000000000 sol:solana; 0 reconciliation difference\(s\)$/m,
    );
    expect(status.stdout).toMatch(/^live: .*\n {2}on chain: not reconciled yet/m);

    const text = await metrics();
    expect(text).toMatch(/^checkout_treasury_balance_base_units\{mode="test",asset="usdc:solana"\} 12500000$/m);
    expect(text).toMatch(/^checkout_reconciliation_differences\{mode="test",account="treasury:solana",asset="usdc:solana"\} 0$/m);
    expect(text).toMatch(/^checkout_reconciliation_last_run_timestamp_seconds\{mode="test"\} \d+/m);
    expect(text).toMatch(/^checkout_treasury_reserved_base_units\{mode="test"\} 2000000$/m);
    expect(text).toMatch(/^checkout_payouts_waiting\{mode="test",status="awaiting_liquidity",older_than_seconds="600"\} 1$/m);
    expect(text).toMatch(/^checkout_payouts_waiting\{mode="test",status="awaiting_liquidity",older_than_seconds="3600"\} 0$/m);
    expect(text).toMatch(/^checkout_chain_intents_unconfirmed\{status="prepared",older_than_seconds="0"\} 1$/m);
    expect(text).toMatch(/^checkout_chain_intents_unconfirmed\{status="signed",older_than_seconds="0"\} 0$/m);
  });
});

describe('checkout-admin report', { timeout: 120_000 }, () => {
  it("prints a merchant's monthly statement (text, CSV) and the mode's assets, from the ledger; refuses a malformed month", async () => {
    const { merchant } = await createTestMerchant(service.db.sql);
    const month = new Date().toISOString().slice(0, 7);
    const payable = `merchant_payable:${merchant.id}`;
    const pay = `payout:pay_${merchant.id.slice(4)}`;
    const post = (groupId: string, debit: string, credit: string, amount: bigint) =>
      postLedger(service.db.sql, {
        groupId,
        mode: 'live',
        reference: pay,
        entries: [
          { account: debit, asset: 'usdc:solana', amount },
          { account: credit, asset: 'usdc:solana', amount: -amount },
        ],
      });
    await post(`deposit:solana:${merchant.id}:0:settled`, 'merchant_pending:solana', payable, 20_000_000n);
    await post(`${pay}:fee`, payable, 'operator_revenue', 500_000n);
    await post(`${pay}:reserve`, payable, 'payouts_in_flight', 19_500_000n);

    const csv = await cli.run(['report', 'statement', merchant.id, '--month', month, '--mode', 'live', '--csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.trim().split('\n')).toEqual([
      'merchant_id,mode,month,line,amount_usdc',
      `${merchant.id},live,${month},held_at_start,0.000000`,
      `${merchant.id},live,${month},received,20.000000`,
      `${merchant.id},live,${month},fees,0.500000`,
      `${merchant.id},live,${month},netted_for_refunds,0.000000`,
      `${merchant.id},live,${month},paid_out,19.500000`,
      `${merchant.id},live,${month},other,0.000000`,
      `${merchant.id},live,${month},held_at_end,0.000000`,
      `${merchant.id},live,${month},refunds_charged,0.000000`,
    ]);
    const text = await cli.run(['report', 'statement', merchant.id, '--month', month]);
    expect(text.stdout).toMatch(/^ {2}fees +0\.500000$/m);
    expectOneLineError(await cli.run(['report', 'statement', merchant.id, '--month', '2026-13']), 2, /--month: Must be a month as YYYY-MM/);

    const assets = await cli.run(['report', 'assets', '--mode', 'live', '--json']);
    expect(assets.code, assets.stderr).toBe(0);
    const usdc = (JSON.parse(assets.stdout) as { assets: Record<string, string>[] }).assets.find((a) => a.asset === 'usdc:solana');
    expect(usdc).toMatchObject({ in_flight: '19500000', revenue: '500000' });
    expect((await cli.run(['report', 'assets', '--mode', 'live'])).stdout).toMatch(
      /^ {2}usdc:solana +0\.000000 .* 19\.500000 .* 0\.500000 /m,
    );
  });
});
