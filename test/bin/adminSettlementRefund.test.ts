// `settlement refund <pay_…> --confirm` as operators run it (test/support/adminCli.ts): a failed settlement with no payout
// given back to the customer, one settlement_failed refund per credited deposit with its workflow started, the pending
// units owed back in the ledger; refused without --confirm, with a payout, or for a session that did not fail; and the
// payment never settled again afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPendingSettlement } from '../../db/repositories/settlements';
import { refundWorkflowId } from '../../domain/refunds/refundPayment';
import { adminCli, expectOneLineError } from '../support/adminCli';
import { insertFailedSettlement } from '../support/failedSettlements';
import { createTestMerchant } from '../support/factories';
import { insertTestPayout } from '../support/payouts';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let merchantId: string;
const cli = adminCli(() => service);

beforeAll(async () => {
  service = await startTestService({ worker: false });
  merchantId = (await createTestMerchant(service.db.sql)).merchant.id;
});
afterAll(() => service?.stop());

const refundsOf = (sessionId: string) =>
  service.db.sql<{ id: string; source: string; deposit_tx_hash: string; amount: string; status: string }[]>`
    select id, source, deposit_tx_hash, amount_base_units::text as amount, status from refunds where session_id = ${sessionId}
    order by amount_base_units desc`;

/** What the session's deposits' postings leave with each owner, netted. */
async function owners(sessionId: string): Promise<Record<string, string>> {
  const rows = await service.db.sql<{ account: string; total: string }[]>`
    select l.account, sum(l.amount)::text as total from ledger_entries l
    where l.reference in (select 'deposit:' || chain || ':' || tx_hash || ':' || log_index from deposits where session_id = ${sessionId})
    group by l.account order by l.account`;
  return Object.fromEntries(rows.map((r) => [r.account, r.total]));
}

describe('checkout-admin settlement refund', () => {
  it('asks for --confirm, then refunds each credited deposit once, starts its workflow, and resettle is refused after', async () => {
    const failed = await insertFailedSettlement(service.db.sql, merchantId, [3_000_000n, 1_500_000n]);
    await insertPendingSettlement(service.db.sql, {
      paymentId: failed.paymentId,
      sessionId: failed.sessionId,
      provider: 'solana-treasury',
      amountUsdcBaseUnits: '4500000',
    });
    const unconfirmed = await cli.run(['settlement', 'refund', failed.paymentId]);
    expectOneLineError(unconfirmed, 1, /gives 3000000 USDC base units on base .*, 1500000 USDC base units on base .*add --confirm/);
    expect(await refundsOf(failed.sessionId)).toEqual([]);
    expect(await owners(failed.sessionId)).toEqual({ 'deposits:base': '4500000', 'merchant_pending:base': '-4500000' });

    const out = (await cli.json(['settlement', 'refund', failed.paymentId, '--confirm'])) as { refunds: { refund_id: string }[] };
    const refunds = await refundsOf(failed.sessionId);
    expect(refunds).toEqual([
      {
        id: expect.any(String),
        source: 'settlement_failed',
        deposit_tx_hash: failed.txHashes[0],
        amount: '3000000',
        status: 'pending_claim',
      },
      {
        id: expect.any(String),
        source: 'settlement_failed',
        deposit_tx_hash: failed.txHashes[1],
        amount: '1500000',
        status: 'pending_claim',
      },
    ]);
    expect(out.refunds.map((r) => r.refund_id).sort()).toEqual(refunds.map((r) => r.id).sort());
    expect(await owners(failed.sessionId)).toEqual({
      'deposits:base': '4500000',
      'merchant_pending:base': '0',
      'refund_due:base': '-4500000',
    });
    for (const refund of refunds) {
      const described = await service.temporal.workflow.getHandle(refundWorkflowId(refund.id)).describe();
      expect(described.type).toBe('refundWorkflow');
    }

    // Again: the same refunds, nothing posted twice.
    const again = (await cli.json(['settlement', 'refund', failed.paymentId, '--confirm'])) as { refunds: { refund_id: string }[] };
    expect(again.refunds.map((r) => r.refund_id).sort()).toEqual(refunds.map((r) => r.id).sort());
    expect(await refundsOf(failed.sessionId)).toHaveLength(2);
    expect((await owners(failed.sessionId))['refund_due:base']).toBe('-4500000');

    expectOneLineError(
      await cli.run(['settlement', 'resettle', failed.paymentId]),
      1,
      /was given back to the customer \(settlement refund\): there is nothing left to settle/,
    );
    for (const refund of refunds)
      await service.temporal.workflow
        .getHandle(refundWorkflowId(refund.id))
        .terminate('test over')
        .catch(() => undefined);
  });

  it('refuses a payment with a payout and a session that did not fail, moving nothing', async () => {
    const paidOut = await insertTestPayout(service.db.sql, merchantId, { status: 'failed', amount: 2_000_000n, settlement: 'pending' });
    expectOneLineError(await cli.run(['settlement', 'refund', paidOut.paymentId, '--confirm']), 1, /has a payout \(failed\)/);
    expect(await refundsOf(paidOut.sessionId)).toEqual([]);

    const underpaid = await insertFailedSettlement(service.db.sql, merchantId, [1_000_000n], 'underpaid');
    expectOneLineError(
      await cli.run(['settlement', 'refund', underpaid.paymentId, '--confirm']),
      1,
      /the session of pay_\w+ is underpaid, not failed/,
    );
    expect(await refundsOf(underpaid.sessionId)).toEqual([]);
    expect(await owners(underpaid.sessionId)).toEqual({ 'deposits:base': '1000000', 'merchant_pending:base': '-1000000' });
  });
});
