import { describe, expect, it } from 'vitest';
import { judgeResettle, type ResettleFacts } from '../../../domain/settlement/resettlement';

const PAY = 'pay_01HZZZZZZZZZZZZZZZZZZZZZZZ';
const refused: ResettleFacts = {
  settlement: { status: 'pending', provider: 'solana-treasury', reference: null },
  sessionStatus: 'failed',
  sessionWorkflow: 'COMPLETED',
  settlementWorkflow: 'FAILED',
};

describe('judgeResettle', () => {
  it('starts a settlement that began, paid nothing and failed its session', () => {
    expect(judgeResettle(PAY, refused)).toEqual({ kind: 'start' });
    expect(judgeResettle(PAY, { ...refused, settlementWorkflow: undefined })).toEqual({ kind: 'start' });
  });

  it('is idempotent: a settled payment is already settled, one under way is in progress', () => {
    expect(judgeResettle(PAY, { ...refused, settlement: { status: 'settled', provider: 'solana-treasury', reference: 'sig' } })).toEqual({
      kind: 'already_settled',
      provider: 'solana-treasury',
      reference: 'sig',
    });
    expect(judgeResettle(PAY, { ...refused, sessionWorkflow: 'RUNNING' })).toMatchObject({ kind: 'in_progress' });
    expect(judgeResettle(PAY, { ...refused, settlementWorkflow: 'RUNNING' })).toMatchObject({ kind: 'in_progress' });
  });

  it('never settles a payment whose deposits an operator gave back to the customer', () => {
    expect(judgeResettle(PAY, { ...refused, refunded: true })).toEqual({
      kind: 'refused',
      reason: `payment ${PAY} was given back to the customer (settlement refund): there is nothing left to settle`,
    });
  });

  it('never settles a payout again: a failed one needs repay, any other is followed to its end', () => {
    expect(judgeResettle(PAY, { ...refused, payoutStatus: 'failed' })).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('settlement repay'),
    });
    expect(judgeResettle(PAY, { ...refused, payoutStatus: 'submitted' })).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('has a payout (submitted)'),
    });
  });

  it('settles again a payout an operator started a new generation of, still unpaid', () => {
    expect(judgeResettle(PAY, { ...refused, payoutStatus: 'pending', payoutGeneration: 2 })).toEqual({ kind: 'start' });
    expect(judgeResettle(PAY, { ...refused, payoutStatus: 'failed', payoutGeneration: 2 })).toMatchObject({ kind: 'refused' });
  });

  it('refuses what has nothing to settle again or nothing to resume from', () => {
    expect(judgeResettle(PAY, { ...refused, settlement: undefined })).toMatchObject({ reason: expect.stringContaining('no settlement') });
    expect(judgeResettle(PAY, { ...refused, sessionStatus: 'confirming' })).toMatchObject({
      reason: expect.stringContaining('is confirming, not failed'),
    });
    expect(judgeResettle(PAY, { ...refused, sessionWorkflow: 'TERMINATED' })).toMatchObject({
      reason: expect.stringContaining('ended terminated'),
    });
    expect(judgeResettle(PAY, { ...refused, sessionWorkflow: undefined })).toMatchObject({
      reason: expect.stringContaining('no longer in Temporal'),
    });
  });
});
