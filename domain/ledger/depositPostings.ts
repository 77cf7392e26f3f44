// What a payment's credited deposits post when the treasury settles it. A Solana USDC deposit is the treasury's
// own asset (depositReceived); any other (USDC on base, USDT on bsc, …) is lent against through
// cross_chain_clearing until the transfer that carries it to the treasury lands (crossChainDepositReceived).
import { crossChainDepositReceived, depositReceived, type CrossChainDeposit, type LedgerPosting } from './ledger';
import { toMicroUnits } from '../session/sessionLedger';

/** A deposit credited to the payment: what arrived, in the token's base units on its chain. */
export type CreditedDeposit = Omit<CrossChainDeposit, 'received' | 'payable'> & { amount: bigint };

/**
 * The postings of a payment's credited deposits, in (tx_hash, log_index) order. What the merchant is owed for a
 * deposit off Solana USDC is its amount rescaled to 6 decimals, taken as the step of the running total's rescaling,
 * so the payables add up to the payout (the whole received amount rescaled) even where 18 decimals truncate.
 */
export function depositPostings(deposits: readonly CreditedDeposit[], decimals: number): LedgerPosting[] {
  let total = 0n;
  return deposits.flatMap((d) => {
    if (d.chain === 'solana' && d.token === 'USDC')
      return [depositReceived({ txHash: d.txHash, logIndex: d.logIndex, merchantId: d.merchantId, mode: d.mode, amount: d.amount })];
    const before = toMicroUnits(total, decimals);
    total += d.amount;
    const payable = toMicroUnits(total, decimals) - before;
    // Dust below a micro-unit of an 18-decimal token owes the merchant nothing; its value rides on the next step.
    return payable > 0n ? [crossChainDepositReceived({ ...d, received: d.amount, payable })] : [];
  });
}
