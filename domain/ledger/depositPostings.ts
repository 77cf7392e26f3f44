// What a payment's credited deposits post: when the workflow credits each (depositCredited: the deposit address holds
// it, the part paying the price pending for the merchant, the excess owed back to the customer) and when the signer
// accepts the payment's payout (depositSettled: the pending part becomes what the merchant is owed in Solana USDC).
// Each deposit's units are split by who owns them (domain/settlement/unitOwnership.ts), in the order deposits arrived.
import { depositCredited, depositSettled, type DepositFacts, type LedgerPosting } from './ledger';
import { depositShares, type QuotedPrice } from '../settlement/unitOwnership';

/** A deposit credited to the payment, as the indexer recorded it, and the merchant it pays. */
export type PaymentDeposit = DepositFacts & { merchantId: string };

/**
 * The credit postings of a payment's credited deposits, in the order they arrived (block, tx_hash, log_index), at the
 * price the payment was quoted and the bank transfers credited so far. Each deposit is posted whole, so
 * deposits:<chain> holds all that arrived; posting a group again is a no-op, so the deposits credited before keep
 * the shares they were posted with.
 */
export function creditPostings(deposits: readonly PaymentDeposit[], price: QuotedPrice): LedgerPosting[] {
  const shares = depositShares(
    deposits.map((d) => d.amount),
    price,
  );
  return deposits.map((d, i) => depositCredited({ ...d, merchantUnits: shares[i]!.merchantBaseUnits }));
}

/**
 * The settlement postings of a payment's credited deposits once the signer accepts its payout: each deposit's pending
 * units (`pending[i]`, what its credit posted) become the merchant's payable at the quoted price, and the units that
 * no longer pay the price (a bank transfer credited since the deposit) are owed back to the customer. The payables are
 * the steps of the running total, so they add up to the payout (cryptoPartOwed) even where 18 decimals truncate or
 * the price is not 1.
 */
export function settlementPostings(deposits: readonly PaymentDeposit[], price: QuotedPrice, pending: readonly bigint[]): LedgerPosting[] {
  if (pending.length !== deposits.length) throw new RangeError('every settled deposit needs what its credit left pending');
  const shares = depositShares(
    deposits.map((d) => d.amount),
    price,
  );
  return deposits.map((d, i) =>
    depositSettled({
      chain: d.chain,
      token: d.token,
      txHash: d.txHash,
      logIndex: d.logIndex,
      mode: d.mode,
      merchantId: d.merchantId,
      pending: pending[i]!,
      merchantUnits: shares[i]!.merchantBaseUnits,
      payable: shares[i]!.payableUsdc,
    }),
  );
}
