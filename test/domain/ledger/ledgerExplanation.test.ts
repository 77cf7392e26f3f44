// Where a payment's units are by the ledger: its postings netted per asset and account, whatever accounts they name.
import { describe, expect, it } from 'vitest';
import { groupMeaning, holdingsOf } from '../../../domain/ledger/ledgerExplanation';

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

describe('a posting group in words', () => {
  const ref = 'ref_01JZ8Y4K2Q3W5E6R7T8Y9U0I1O';

  it("says what each of a refund's groups records", () => {
    expect(groupMeaning(`refund:${ref}:reserve`)).toMatch(new RegExp(`^refund ${ref} reserved for its payment: .*refunds_in_flight$`));
    expect(groupMeaning(`refund:${ref}:sent`)).toBe(
      `refund ${ref} paid: the USDC left the treasury for the customer, and the network fee taken from it went to operator_held`,
    );
    expect(groupMeaning(`refund:${ref}:release`)).toMatch(new RegExp(`^refund ${ref} its payment failed: nothing left the treasury`));
    expect(groupMeaning(`refund:${ref}:expired`)).toBe(
      `refund ${ref} expired unclaimed: what the customer was owed (refund_due) went to operator_held, for the operator to decide on`,
    );
    expect(groupMeaning(`refund:${ref}:failed`)).toMatch(new RegExp(`^refund ${ref} could not be paid: .*operator_held`));
    expect(groupMeaning(`refund:${ref}:cancelled`)).toMatch(new RegExp(`^refund ${ref} was withdrawn by an operator`));
    expect(groupMeaning(`refund:${ref}:reissued`)).toMatch(new RegExp(`^refund ${ref} reissues a refund that ended unpaid`));
    expect(groupMeaning(`refund:${ref}:chain-costs`)).toMatch(new RegExp(`^refund ${ref}: SOL the transaction cost the treasury`));
  });

  it("says what a payout's, a deposit's and an operator's groups record, the payout's of any generation", () => {
    expect(groupMeaning('payout:pay_1:reserve')).toMatch(/^payout of pay_1 reserved for its payout/);
    expect(groupMeaning('payout:pay_1:2:sent')).toBe('payout of pay_1 paid: the USDC left the treasury for the merchant');
    expect(groupMeaning('payout:pay_1:chain-costs')).toMatch(/^payout of pay_1: SOL the transaction cost/);
    expect(groupMeaning('payout:pay_1:netted')).toMatch(/^payout of pay_1 netted from the merchant's receivable/);
    expect(groupMeaning('deposit:base:0xabc:3')).toMatch(/^deposit on base received at its deposit address/);
    expect(groupMeaning('deposit:base:0xabc:3:settled')).toMatch(/^deposit on base settled/);
    expect(groupMeaning('deposit:polygon:0xabc:3:credited')).toMatch(/^deposit on polygon kept for a refund, then credited/);
    expect(groupMeaning('treasury-funding:5VER')).toBe("an operator's transaction into or out of the treasury");
    expect(groupMeaning('relayer-funding:tron:abc')).toBe("an operator's payment of gas coin to the relayer on tron");
  });

  it("says what a CCTP transfer's groups record, its receive's SOL costs among them", () => {
    expect(groupMeaning('tr_0a1b2c:burned')).toMatch(/^CCTP transfer tr_0a1b2c burned on its source chain/);
    expect(groupMeaning('tr_0a1b2c:received')).toMatch(/^CCTP transfer tr_0a1b2c minted to the treasury on Solana/);
    expect(groupMeaning('tr_0a1b2c:chain-costs')).toMatch(/^CCTP transfer tr_0a1b2c received by the treasury: SOL the receive cost it/);
    expect(groupMeaning('tr_0a1b2c:teleported')).toBeUndefined();
  });

  it('knows no meaning for a group of a kind or a step it has never heard of', () => {
    expect(groupMeaning('refund-due:pay_1')).toBeUndefined();
    expect(groupMeaning(`refund:${ref}:teleported`)).toBeUndefined();
    expect(groupMeaning(`refund:${ref}`)).toBeUndefined();
    expect(groupMeaning('sweep:solana:batch1:usdc')).toBeUndefined();
  });
});
