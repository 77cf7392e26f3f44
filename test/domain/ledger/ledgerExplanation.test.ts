// Where a payment's units are by the ledger: its postings netted per asset and account, whatever accounts they name.
import { describe, expect, it } from 'vitest';
import { holdingsOf } from '../../../domain/ledger/ledgerExplanation';

describe('a payment explained', () => {
  it('nets the entries per asset and account, leaves out accounts back at zero, and keeps accounts it has never heard of', () => {
    const entries = [
      { groupId: 'deposit:solana:tx:1', account: 'deposits:solana', asset: 'usdc:solana', amount: 10_000_000n },
      { groupId: 'deposit:solana:tx:1', account: 'merchant_payable:mer_1', asset: 'usdc:solana', amount: -10_000_000n },
      { groupId: 'payout:pay_1:reserve', account: 'merchant_payable:mer_1', asset: 'usdc:solana', amount: 9_000_000n },
      { groupId: 'payout:pay_1:reserve', account: 'payouts_in_flight', asset: 'usdc:solana', amount: -9_000_000n },
      { groupId: 'payout:pay_1:sent', account: 'payouts_in_flight', asset: 'usdc:solana', amount: 9_000_000n },
      { groupId: 'payout:pay_1:sent', account: 'treasury:solana', asset: 'usdc:solana', amount: -9_000_000n },
      { groupId: 'refund:pay_1', account: 'merchant_payable:mer_1', asset: 'usdc:solana', amount: 1_000_000n },
      { groupId: 'refund:pay_1', account: 'customer_refund_due:pay_1', asset: 'usdc:solana', amount: -1_000_000n },
      { groupId: 'payout:pay_1:chain-costs', account: 'gas_expense:solana', asset: 'sol:solana', amount: 5_000n },
      { groupId: 'payout:pay_1:chain-costs', account: 'treasury:solana', asset: 'sol:solana', amount: -5_000n },
    ];
    expect(holdingsOf(entries)).toEqual([
      { asset: 'sol:solana', account: 'gas_expense:solana', amount: 5_000n },
      { asset: 'sol:solana', account: 'treasury:solana', amount: -5_000n },
      { asset: 'usdc:solana', account: 'customer_refund_due:pay_1', amount: -1_000_000n },
      { asset: 'usdc:solana', account: 'deposits:solana', amount: 10_000_000n },
      { asset: 'usdc:solana', account: 'treasury:solana', amount: -9_000_000n },
    ]);
  });

  it('is empty without entries', () => {
    expect(holdingsOf([])).toEqual([]);
  });
});
