// The ledger postings of a refund's payment (docs/refunds.md#ledger), under the refund's chain intent id
// (refund:<ref_id>). When the signer writes the payment, what the refund returns is committed to it
// (refunds_in_flight, Solana USDC): an automatic refund's money is what the service owes the customer in the token and
// on the chain it arrived in (refund_due:<chain>), lent against through cross_chain_clearing when that is not Solana
// USDC, as a settled deposit is; a merchant's refund is advanced by the treasury and owed by the merchant
// (merchant_receivable:<mer_id>), as is the fee under the `merchant` policy. When the transfer lands, what the
// customer got leaves the treasury and the fee kept from it is the operator's; a transfer that lands and fails
// releases the reservation. Pure.
import type { Chain, TokenSymbol } from '../chains/chains';
import type { RefundSource } from '../refunds/refundSource';
import type { Mode } from '../wire/session';
import { ACCOUNT, ASSET, tokenAsset, treasurySolCosts, type Asset, type LedgerEntry, type LedgerPosting } from './ledger';

export interface RefundPaymentAmounts {
  refundId: string;
  mode: Mode;
  merchantId: string;
  source: RefundSource;
  /** What is owed, in the token and on the chain it arrived in (a merchant's refund: USDC on Solana). */
  token: TokenSymbol;
  chain: Chain;
  amountBaseUnits: bigint;
  /** Its worth in USD micro-units: Solana USDC base units. */
  amountUsdMicros: bigint;
  /** What the transfer moves to the customer (refundFee.ts). */
  paid: bigint;
  /** The fee kept from the refund or owed by the merchant. */
  fee: bigint;
  /** The part of `fee` the merchant owes (policy `merchant`); zero when it is kept from the refund. */
  merchantFee: bigint;
}

export const refundIntentId = (refundId: string) => `refund:${refundId}`;

function checked(refund: RefundPaymentAmounts): RefundPaymentAmounts {
  const { amountBaseUnits, amountUsdMicros, paid, fee, merchantFee } = refund;
  if (amountBaseUnits <= 0n || amountUsdMicros <= 0n || paid <= 0n)
    throw new RangeError(`refund ${refund.refundId}: amounts must be positive`);
  if (fee < 0n || (merchantFee !== 0n && merchantFee !== fee))
    throw new RangeError(`refund ${refund.refundId}: the merchant owes the whole fee or none of it`);
  const kept = merchantFee === 0n ? fee : 0n;
  if (paid + kept !== amountUsdMicros)
    throw new RangeError(`refund ${refund.refundId}: ${paid} paid and ${kept} kept are not the ${amountUsdMicros} it returns`);
  return refund;
}

/** One entry per account and asset, as the ledger keys them (a group holds each once), zero sums left out. */
function merged(entries: LedgerEntry[]): LedgerEntry[] {
  const sums = new Map<string, LedgerEntry>();
  for (const entry of entries) {
    const key = `${entry.account}\u0000${entry.asset}`;
    const seen = sums.get(key);
    sums.set(key, seen ? { ...seen, amount: seen.amount + entry.amount } : { ...entry });
  }
  return [...sums.values()].filter((e) => e.amount !== 0n);
}

const entry = (account: string, asset: Asset, amount: bigint): LedgerEntry => ({ account, asset, amount });

function posting(refund: RefundPaymentAmounts, suffix: string, entries: LedgerEntry[]): LedgerPosting {
  const reference = refundIntentId(refund.refundId);
  return { groupId: `${reference}:${suffix}`, mode: refund.mode, reference, entries: merged(entries) };
}

function reserveEntries(refund: RefundPaymentAmounts): LedgerEntry[] {
  const { amountBaseUnits, amountUsdMicros, merchantFee } = checked(refund);
  const usdc = ASSET.usdcSolana;
  const fee =
    merchantFee > 0n
      ? [entry(ACCOUNT.merchantReceivable(refund.merchantId), usdc, merchantFee), entry(ACCOUNT.operatorHeld('solana'), usdc, -merchantFee)]
      : [];
  const inFlight = entry(ACCOUNT.refundsInFlight, usdc, -amountUsdMicros);
  if (refund.source === 'merchant') return [entry(ACCOUNT.merchantReceivable(refund.merchantId), usdc, amountUsdMicros), inFlight, ...fee];
  const asset = tokenAsset(refund.token, refund.chain);
  const due = ACCOUNT.refundDue(refund.chain);
  if (asset === usdc) {
    if (amountBaseUnits !== amountUsdMicros)
      throw new RangeError(`refund ${refund.refundId}: Solana USDC is worth its units, not ${amountUsdMicros} for ${amountBaseUnits}`);
    return [entry(due, usdc, amountUsdMicros), inFlight, ...fee];
  }
  return [
    entry(due, asset, amountBaseUnits),
    entry(ACCOUNT.crossChainClearing, asset, -amountBaseUnits),
    entry(ACCOUNT.crossChainClearing, usdc, amountUsdMicros),
    inFlight,
    ...fee,
  ];
}

/** The signer wrote the refund's payment: what it returns is committed to it, and a fee the merchant bears is owed. */
export function refundReserved(refund: RefundPaymentAmounts): LedgerPosting {
  return posting(refund, 'reserve', reserveEntries(refund));
}

/** The refund's transfer landed: what the customer got left the treasury, and a fee kept from the refund is the operator's. */
export function refundSent(refund: RefundPaymentAmounts): LedgerPosting {
  const { amountUsdMicros, paid } = checked(refund);
  const usdc = ASSET.usdcSolana;
  return posting(refund, 'sent', [
    entry(ACCOUNT.refundsInFlight, usdc, amountUsdMicros),
    entry(ACCOUNT.treasury, usdc, -paid),
    entry(ACCOUNT.operatorHeld('solana'), usdc, -(amountUsdMicros - paid)),
  ]);
}

/** The refund's transfer landed and failed: nothing left the treasury; the reservation is undone. */
export function refundReleased(refund: RefundPaymentAmounts): LedgerPosting {
  return posting(
    refund,
    'release',
    reserveEntries(refund).map((e) => ({ ...e, amount: -e.amount })),
  );
}

/**
 * The SOL the landed refund transaction cost the treasury, its fee payer: the fee, and the rent of the customer's USDC
 * account when it created it. Undefined when it cost nothing.
 */
export function refundChainCosts(
  refund: Pick<RefundPaymentAmounts, 'refundId' | 'mode'>,
  costs: { feeLamports: bigint; rentLamports: bigint },
): LedgerPosting | undefined {
  const entries = treasurySolCosts(costs);
  if (!entries) return undefined;
  const reference = refundIntentId(refund.refundId);
  return { groupId: `${reference}:chain-costs`, mode: refund.mode, reference, entries };
}
