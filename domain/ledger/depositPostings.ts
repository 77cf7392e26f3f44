// What a payment's credited deposits post when the treasury settles it. A Solana USDC deposit is the treasury's
// own asset (depositReceived); any other (USDC on base, USDT on bsc, …) is lent against through
// cross_chain_clearing until the transfer that carries it to the treasury lands (crossChainDepositReceived). Each
// deposit's units are split by who owns them (domain/settlement/unitOwnership.ts): the merchant's price, and the
// excess owed back to the customer.
import { crossChainDepositReceived, depositReceived, type CrossChainDeposit, type LedgerPosting } from './ledger';
import { depositShares, type QuotedPrice } from '../settlement/unitOwnership';

/** A deposit credited to the payment: what arrived, in the token's base units on its chain. */
export type CreditedDeposit = Omit<CrossChainDeposit, 'received' | 'payable' | 'refundDue'> & { amount: bigint };

/**
 * The postings of a payment's credited deposits, in the order they arrived (block, tx_hash, log_index), at the price the payment was quoted.
 * The payables are the steps of the running total, so they add up to the payout (merchantOwed) even where 18
 * decimals truncate or the price is not 1; every deposit is posted whole, so deposits:<chain> holds all that arrived.
 */
export function depositPostings(deposits: readonly CreditedDeposit[], price: QuotedPrice): LedgerPosting[] {
  const shares = depositShares(
    deposits.map((d) => d.amount),
    price,
  );
  return deposits.map((d, i) => {
    const { payableUsdc: payable, refundDueBaseUnits: refundDue } = shares[i]!;
    if (d.chain === 'solana' && d.token === 'USDC')
      return depositReceived({
        txHash: d.txHash,
        logIndex: d.logIndex,
        merchantId: d.merchantId,
        mode: d.mode,
        amount: d.amount,
        payable,
        refundDue,
      });
    return crossChainDepositReceived({ ...d, received: d.amount, payable, refundDue });
  });
}
