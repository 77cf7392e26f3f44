// Only an automatic refund that ended unpaid is reissued, under how it ended.
import { describe, expect, it } from 'vitest';
import { judgeRefundReissue } from '../../../domain/refunds/refundReissue';

describe('reissuing a refund', () => {
  it('reissues an automatic refund that failed, expired or was cancelled, naming how it ended', () => {
    for (const status of ['failed', 'expired', 'cancelled'] as const)
      expect(judgeRefundReissue({ id: 'ref_1', source: 'wrong_chain', status }, false)).toEqual({ ok: true, ending: status });
  });

  it('refuses one still under way or paid', () => {
    for (const status of ['pending_claim', 'claimed', 'submitted', 'completed'] as const)
      expect(judgeRefundReissue({ id: 'ref_1', source: 'late_deposit', status }, false)).toEqual({
        ok: false,
        refusal: expect.stringContaining('only one that ended unpaid (failed, expired or cancelled) is reissued'),
      });
  });

  it("refuses a merchant's refund: the merchant makes another", () => {
    expect(judgeRefundReissue({ id: 'ref_1', source: 'merchant', status: 'failed' }, false)).toEqual({
      ok: false,
      refusal: "refund ref_1 is a merchant's: the merchant creates another through the API instead",
    });
  });

  it("refuses a refund of a deposit kept for a refund and credited to its session since: its money is the merchant's", () => {
    expect(judgeRefundReissue({ id: 'ref_1', source: 'wrong_token', status: 'cancelled' }, true)).toEqual({
      ok: false,
      refusal: "refund ref_1: its deposit was credited to the session since, so its money is the merchant's",
    });
    // An overpayment's deposit is credited by nature: its excess is still the customer's.
    expect(judgeRefundReissue({ id: 'ref_1', source: 'overpayment', status: 'expired' }, true)).toEqual({ ok: true, ending: 'expired' });
  });
});
