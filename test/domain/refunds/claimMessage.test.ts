import { describe, expect, it } from 'vitest';
import { refundClaimMessage } from '../../../domain/refunds/claimMessage';

const REFUND = 'ref_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const DESTINATION = { chain: 'solana', token: 'USDC', address: 'GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB' } as const;

describe('the refund claim message', () => {
  it('is fixed text naming the refund and the destination', () => {
    expect(refundClaimMessage(REFUND, DESTINATION)).toBe(
      [
        'Refund claim',
        'Refund: ref_01ARZ3NDEKTSV4RRFFQ69G5FAV',
        'Send it as USDC on solana to: GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB',
        'I control the wallet that made the payment.',
      ].join('\n'),
    );
  });

  it('differs for another refund or another destination, so a signature cannot be reused', () => {
    const base = refundClaimMessage(REFUND, DESTINATION);
    expect(refundClaimMessage('ref_01BX5ZZKBKACTAV9WEVGEMMVRZ', DESTINATION)).not.toBe(base);
    expect(refundClaimMessage(REFUND, { ...DESTINATION, address: '11111111111111111111111111111112' })).not.toBe(base);
    expect(refundClaimMessage(REFUND, { ...DESTINATION, chain: 'base' })).not.toBe(base);
  });
});
