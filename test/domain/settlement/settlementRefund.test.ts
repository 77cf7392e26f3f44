import { describe, expect, it } from 'vitest';
import { judgeSettlementRefund, type SettlementRefundFacts } from '../../../domain/settlement/settlementRefund';

const PAY = 'pay_01HZZZZZZZZZZZZZZZZZZZZZZZ';
const failed: SettlementRefundFacts = { sessionStatus: 'failed', settlement: { status: 'pending' }, sessionWorkflow: 'COMPLETED' };

describe('judgeSettlementRefund', () => {
  it('gives back a failed session with no payout: refused by the signer, or with no route and no settlement at all', () => {
    expect(judgeSettlementRefund(PAY, failed)).toEqual({ kind: 'refund' });
    expect(judgeSettlementRefund(PAY, { sessionStatus: 'failed' })).toEqual({ kind: 'refund' });
    expect(judgeSettlementRefund(PAY, { ...failed, settlementWorkflow: 'FAILED' })).toEqual({ kind: 'refund' });
  });

  it('refuses a payment with a payout, whatever its status: its units are no longer pending', () => {
    for (const payoutStatus of ['pending', 'submitted', 'confirmed', 'failed'])
      expect(judgeSettlementRefund(PAY, { ...failed, payoutStatus })).toMatchObject({
        kind: 'refused',
        reason: expect.stringContaining(`has a payout (${payoutStatus})`),
      });
  });

  it('refuses a session that is not failed, a settled payment, one under way and an unknown one', () => {
    expect(judgeSettlementRefund(PAY, { ...failed, sessionStatus: 'underpaid' })).toEqual({
      kind: 'refused',
      reason: `the session of ${PAY} is underpaid, not failed: only a failed settlement's deposits are given back`,
    });
    expect(judgeSettlementRefund(PAY, { ...failed, settlement: { status: 'settled' } })).toMatchObject({ kind: 'refused' });
    expect(judgeSettlementRefund(PAY, { ...failed, sessionWorkflow: 'RUNNING' })).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('under way'),
    });
    expect(judgeSettlementRefund(PAY, { ...failed, settlementWorkflow: 'RUNNING' })).toMatchObject({ kind: 'refused' });
    expect(judgeSettlementRefund(PAY, {})).toEqual({ kind: 'refused', reason: `payment ${PAY} does not exist` });
  });
});
