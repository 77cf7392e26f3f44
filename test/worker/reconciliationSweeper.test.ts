// The worker's scheduled reconciliation: it reconciles each mode at start, stores the run, warns of a difference
// in the log (agreement is logged at info; npm run demo shows it for a fresh stack), skips a mode another replica reconciled within half an interval, and is off at interval 0.
// Before comparing it posts the deposits kept for a refund that no workflow posted, and opens their refunds
// (test/activities/refunds/missingDepositRefunds.test.ts runs their workflows); Temporal out of reach does not stop it.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TreasuryView } from '../../activities/settlement/ledgerReconciliation';
import { lastReconciliationRuns } from '../../db/repositories/reconciliation';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';
import { startReconciliationSweeper } from '../../worker/reconciliationSweeper';
import { openMissingDepositRefunds } from '../../activities/refunds/missingDepositRefunds';
import type { Mode } from '../../domain/wire/session';
import { createPayoutFixture, type PayoutFixture } from '../activities/settlement/payoutFixture';

let f: PayoutFixture;
let view: TreasuryView;

beforeAll(async () => {
  f = await createPayoutFixture();
  const treasury = await f.treasury({ usdc: 3_000_000n, sol: 0n });
  view = { mode: 'test', rpc: f.rpc, treasury: treasury.treasury.address, usdcMint: f.usdc.address };
});
afterAll(() => f?.stop());

/** The refund workflows the sweep starts, kept instead of started. */
const started: string[] = [];
const openMissingRefunds = (mode: Mode) =>
  openMissingDepositRefunds({ sql: f.worker, refundClaimDays: 30, startRefund: async (refund) => void started.push(refund.id) }, mode);

function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('the reconciliation sweeper', () => {
  it('reconciles at start, stores the run and warns of each difference', async () => {
    const { logger, lines } = capturedLogger();
    await startReconciliationSweeper(f.worker, [view], 60, logger, openMissingRefunds)?.stop();
    const [run] = await lastReconciliationRuns(f.db.sql);
    expect(run).toMatchObject({
      mode: 'test',
      differences: [{ account: 'treasury:solana', asset: 'usdc:solana', ledger: 0n, observed: 3_000_000n, difference: 3_000_000n }],
    });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        mode: 'test',
        run: run!.id,
        differences: [{ account: 'treasury:solana', asset: 'usdc:solana', ledger: '0', observed: '3000000', difference: '3000000' }],
        msg: 'ledger and chain differ (checkout-admin ledger reconcile --last)',
      }),
    ]);
  });

  it('posts a confirmed deposit the indexer marked late as refund due before it reconciles', async () => {
    const { merchant } = await createTestMerchant(f.db.sql);
    const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
    await insertSessionRecord(f.db.sql, record, 'expired');
    await f.db
      .sql`insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address, block_number, block_hash, stage, confirmations, credited, late)
                   values ('base', '0xlate', 0, 'testnet', ${record.sessionId}, 'USDC', 2000000, '0xpayer', '0xdeposit', 10, '0xbh', 'confirmed', 64, false, true)`;
    const { logger, lines } = capturedLogger();
    await f.db.sql`delete from reconciliation_runs`;
    await startReconciliationSweeper(f.worker, [view], 60, logger, openMissingRefunds)?.stop();
    expect(
      await f.db.sql`select account, asset, amount::text from ledger_entries where group_id = 'deposit:base:0xlate:0' order by account`,
    ).toEqual([
      { account: 'deposits:base', asset: 'usdc:base', amount: '2000000' },
      { account: 'refund_due:base', asset: 'usdc:base', amount: '-2000000' },
    ]);
    expect(lines[0]).toMatchObject({ level: 30, mode: 'test', posted: 1, msg: 'deposits kept for a refund posted as refund due' });
    // No workflow recorded it: the sweep opens its refund and starts its workflow.
    const refunds = await f.db.sql<Array<{ id: string; source: string; status: string }>>`
      select id, source, status from refunds where deposit_tx_hash = '0xlate'`;
    expect(refunds).toEqual([{ id: expect.stringMatching(/^ref_/), source: 'late_deposit', status: 'pending_claim' }]);
    expect(started).toEqual([refunds[0]!.id]);
    expect(lines[1]).toMatchObject({
      level: 30,
      mode: 'test',
      refunds: [refunds[0]!.id],
      msg: 'refunds opened for deposits kept for a refund',
    });
  });

  it('reconciles even when the refunds cannot be opened', async () => {
    const { logger, lines } = capturedLogger();
    await f.db.sql`delete from reconciliation_runs`;
    const unreachable = () => Promise.reject(new Error('Temporal unreachable'));
    await startReconciliationSweeper(f.worker, [view], 60, logger, unreachable)?.stop();
    expect(await lastReconciliationRuns(f.db.sql)).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      mode: 'test',
      msg: 'opening the missing deposit refunds failed; the next reconciliation retries',
    });
  });

  it('skips a mode reconciled within half an interval, and does nothing at interval 0 or without a treasury', async () => {
    const { logger, lines } = capturedLogger();
    const before = await f.db.sql`select count(*)::int as n from reconciliation_runs`;
    await startReconciliationSweeper(f.worker, [view], 60, logger, openMissingRefunds)?.stop();
    expect(startReconciliationSweeper(f.worker, [view], 0, logger, openMissingRefunds)).toBeUndefined();
    expect(startReconciliationSweeper(f.worker, [], 60, logger, openMissingRefunds)).toBeUndefined();
    expect(await f.db.sql`select count(*)::int as n from reconciliation_runs`).toEqual(before);
    expect(lines).toEqual([]);
  });
});
