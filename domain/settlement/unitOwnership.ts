// Who owns each unit a session's payment brings in (docs/settlement.md#who-owns-each-unit). The merchant is owed its
// price, never more: the credited deposits' USD value at the price quoted when the payment was chosen, up to the
// session amount. Whatever the credited deposits bring beyond that amount is owed back to the customer, whether or not
// it is within the tolerance: the tolerance decides the session's status, never who owns the money. Pure and integer
// only, so the workflow computes the payout with it and the ledger splits each deposit with the same arithmetic.
import { toMicroUnits } from '../session/sessionLedger';
import type { LedgerState } from '../session/sessionState';

/**
 * The price a payment was chosen at: the session amount against the token amount the selection asked for
 * (PaymentInstructions.amount_base_units, the amount at the quoted rate rounded up). Their ratio is the quoted rate,
 * so the amount asked for is worth exactly the session amount.
 */
export interface QuotedPrice {
  amountUsdCents: bigint;
  expectedBaseUnits: bigint;
  decimals: number;
  /** Credited bank transfers: the part of the price the merchant already holds in its own account. */
  bankCents?: bigint;
}

/** One USD cent in USDC base units (6 decimals). */
const USDC_PER_CENT = 10_000n;

/** USDC base units `baseUnits` of the quoted token are worth, rounded down: a payout never exceeds what arrived. */
export function usdValue(baseUnits: bigint, price: QuotedPrice): bigint {
  const expected = toMicroUnits(price.expectedBaseUnits, price.decimals);
  if (expected <= 0n) throw new RangeError('a quoted price needs a positive expected amount');
  return (toMicroUnits(baseUnits, price.decimals) * price.amountUsdCents * USDC_PER_CENT) / expected;
}

const quotedPrice = (selection: NonNullable<LedgerState['selection']>, amountUsdCents: bigint): QuotedPrice => ({
  amountUsdCents,
  expectedBaseUnits: BigInt(selection.amount_base_units),
  decimals: selection.decimals,
});

/**
 * USDC base units the merchant is owed for a session that settles: min(credited USD value, session amount). Credited
 * deposits count at the quoted price, credited bank transfers at their cents; an underpaid session at expiry is owed
 * what arrived.
 */
export function merchantOwed(ledger: LedgerState, amountUsdCents: bigint): bigint {
  const crypto = ledger.selection ? usdValue(BigInt(ledger.receivedBaseUnits), quotedPrice(ledger.selection, amountUsdCents)) : 0n;
  const credited = crypto + BigInt(ledger.bankReceivedCents) * USDC_PER_CENT;
  const amount = amountUsdCents * USDC_PER_CENT;
  return credited < amount ? credited : amount;
}

/**
 * USDC base units the treasury pays for the crypto part of a session: the merchant's price less the credited bank
 * transfers it already holds, up to the crypto deposits' value at the quoted price. Without bank transfers, merchantOwed.
 */
export function cryptoPartOwed(ledger: LedgerState, amountUsdCents: bigint): bigint {
  const bankCents = BigInt(ledger.bankReceivedCents);
  return merchantOwed(ledger, amountUsdCents) - minimum(bankCents, amountUsdCents) * USDC_PER_CENT;
}

const minimum = (a: bigint, b: bigint) => (a < b ? a : b);

/** USDC base units of the price left for crypto deposits to pay once bank transfers paid their part. */
const cryptoPriceUsdc = (amountUsdCents: bigint, bankCents: bigint) =>
  amountUsdCents > bankCents ? (amountUsdCents - bankCents) * USDC_PER_CENT : 0n;

/** How one credited deposit divides between the merchant and the customer. */
export interface DepositShare {
  /** Token base units that pay the merchant's price. */
  merchantBaseUnits: bigint;
  /** Token base units beyond the price: owed back to the customer. */
  refundDueBaseUnits: bigint;
  /** USDC base units the merchant is owed for `merchantBaseUnits` at the quoted price. */
  payableUsdc: bigint;
}

/**
 * The shares of a payment's credited deposits, in the order they arrived. Each share is the step of the running
 * total, so the payables add up to exactly the payout (merchantOwed of their sum) wherever rounding falls, and the
 * deposits that arrive after the amount asked for is reached are wholly refund due.
 */
export function depositShares(amounts: readonly bigint[], price: QuotedPrice): DepositShare[] {
  // What the crypto deposits pay once bank transfers paid their part: in token units rounded up, so the units that
  // reach it are worth at least its USDC, and in USDC, which the payables never pass (cryptoPartOwed).
  const bankCents = price.bankCents ?? 0n;
  const payableCap = cryptoPriceUsdc(price.amountUsdCents, bankCents);
  const tokenCap = bankCents === 0n ? price.expectedBaseUnits : tokensWorth(payableCap, price);
  let received = 0n;
  let merchantBefore = 0n;
  let payableBefore = 0n;
  return amounts.map((amount) => {
    if (amount <= 0n) throw new RangeError(`a deposit amount must be positive, got ${amount}`);
    received += amount;
    const merchant = minimum(received, tokenCap);
    const payable = minimum(usdValue(merchant, price), payableCap);
    const share = {
      merchantBaseUnits: merchant - merchantBefore,
      refundDueBaseUnits: amount - (merchant - merchantBefore),
      payableUsdc: payable - payableBefore,
    };
    merchantBefore = merchant;
    payableBefore = payable;
    return share;
  });
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** The fewest base units of the quoted token worth at least `usdc` at the quoted price (usdValue's inverse, rounded up). */
function tokensWorth(usdc: bigint, price: QuotedPrice): bigint {
  const micro = ceilDiv(usdc * toMicroUnits(price.expectedBaseUnits, price.decimals), price.amountUsdCents * USDC_PER_CENT);
  return price.decimals >= 6 ? micro * 10n ** BigInt(price.decimals - 6) : ceilDiv(micro, 10n ** BigInt(6 - price.decimals));
}
