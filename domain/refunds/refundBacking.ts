// Whether the signer may pay a refund (docs/refunds.md#payment), judged on facts the signer reads itself before it
// writes the refund's payment. The refund row is written by roles that talk to the internet (the API, the worker), so
// it proves nothing on its own: an automatic refund is backed only by the indexer's record of the deposit it returns,
// at the session's own deposit address, less what the merchant's price took of it (unless the price's share itself is
// given back, which only a session without a payout can do) and what other refunds returned; a
// merchant's refund only by what the session's payouts paid the merchant, less its other refunds, within what the
// merchant may owe the service. Pure.
import { ed25519 } from '@noble/curves/ed25519.js';
import { getAddressEncoder, isAddress } from '@solana/kit';
import { CHAIN_FACTS, type Chain, type TokenSymbol } from '../chains/chains';
import type { Network } from '../chains/tokenContracts';
import type { DepositFact } from '../settlement/depositBacking';
import { toMicroUnits } from '../session/sessionLedger';
import type { Mode } from '../wire/session';
import type { RefundDestination } from '../wire/refund';
import { isRefundRoute } from './refundDestinations';
import { UNPAID_MERCHANT_SOURCES, type RefundSource } from './refundSource';
import type { RefundStatus } from './refundStatus';

export type RefundVerdict = { kind: 'backed' } | { kind: 'refused'; reason: string };

const refused = (reason: string): RefundVerdict => ({ kind: 'refused', reason });
const BACKED: RefundVerdict = { kind: 'backed' };

/** The refund row as the signer read it. */
export interface RefundToPay {
  id: string;
  mode: Mode;
  status: RefundStatus;
  source: RefundSource;
  token: TokenSymbol;
  chain: Chain;
  amountBaseUnits: bigint;
  amountUsdMicros: bigint;
  destination: RefundDestination | null;
}

/** The row is one this signer may pay now: claimed, of its mode, to a place refunds can go. */
export function judgeRefundRow(refund: RefundToPay | undefined, request: { refundId: string; mode: Mode }): RefundVerdict {
  if (!refund) return refused(`no refund ${request.refundId}`);
  if (refund.mode !== request.mode)
    return refused(`refund ${refund.id} is a ${refund.mode} refund; the ${request.mode} treasury does not pay it`);
  if (refund.status !== 'claimed') return refused(`refund ${refund.id} is ${refund.status.replace('_', ' ')}, not claimed`);
  const { destination } = refund;
  if (!destination) return refused(`refund ${refund.id} has no destination`);
  if (!isRefundRoute(destination))
    return refused(`refund ${refund.id}: ${destination.token} on ${destination.chain} is not a refund route`);
  return BACKED;
}

/**
 * The refund is of its session's merchant and mode, as the session records them (which no role but the schema owner
 * changes): a refund naming another merchant would charge that merchant's receivable for this session's money.
 */
export function judgeRefundSession(
  refund: Pick<RefundToPay, 'id' | 'mode'> & { merchantId: string; sessionId: string },
  session: { merchantId: string; mode: Mode } | undefined,
): RefundVerdict {
  if (!session) return refused(`refund ${refund.id}: no session ${refund.sessionId}`);
  if (session.merchantId !== refund.merchantId)
    return refused(
      `refund ${refund.id}: session ${refund.sessionId} belongs to merchant ${session.merchantId}, not to ${refund.merchantId}`,
    );
  if (session.mode !== refund.mode) return refused(`refund ${refund.id}: session ${refund.sessionId} is a ${session.mode} session`);
  return BACKED;
}

function onCurve(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * A Solana wallet that can own a USDC account: base58 of 32 bytes on the ed25519 curve. An address off the curve is a
 * program-derived one (an associated token account among them), which no one signs for: money sent there is lost.
 */
export function judgeSolanaOwner(address: string): RefundVerdict {
  if (!isAddress(address)) return refused(`${address} is not a Solana address`);
  if (!onCurve(Uint8Array.from(getAddressEncoder().encode(address))))
    return refused(`${address} is off the ed25519 curve: a program-derived address (a token account, say), not a wallet`);
  return BACKED;
}

/** What the session's money did, in USD micro-units, as the indexer and the signer's own rows record it. */
export interface SessionMoney {
  /** The session's confirmed deposits to its own addresses, at full depth. */
  depositedUsdMicros: bigint;
  /** Its payouts the signer wrote and has not seen fail. */
  paidOutUsdMicros: bigint;
  /** Its other automatic refunds the signer wrote and has not seen fail. */
  refundedUsdMicros: bigint;
}

/** The facts an automatic refund is judged on. */
export interface AutomaticBacking {
  refund: RefundToPay;
  network: Network;
  /** The indexer's row of the refund's deposit, for the refund's session; undefined when it has none. */
  deposit: DepositFact | undefined;
  /** The session's deposit address on the deposit's chain, once found to be the service's own; null when it has none. */
  depositAddress: string | null;
  requiredConfirmations: number;
  /** The token's decimals on the deposit's chain, as the indexer watches it; undefined when it is not watched. */
  decimals: number | undefined;
  /** Base units of the deposit that pay the session's price: the merchant's (domain/settlement/unitOwnership.ts). */
  merchantShare: bigint;
  /** Base units of the deposit other refunds return. */
  refundedBefore: bigint;
  /** Whether the session has a payout row, whatever its status: the price's share then went, or may go, to the merchant. */
  sessionHasPayout: boolean;
  session: SessionMoney;
}

const sameAddress = (chain: Chain, a: string, b: string) =>
  CHAIN_FACTS[chain].family === 'evm' ? a.toLowerCase() === b.toLowerCase() : a === b;

export function judgeAutomaticBacking(facts: AutomaticBacking): RefundVerdict {
  const { refund, deposit, depositAddress } = facts;
  const name = `refund ${refund.id}`;
  if (!deposit) return refused(`${name}: the indexer recorded no such deposit for its session`);
  if (deposit.chain !== refund.chain || deposit.token !== refund.token || deposit.network !== facts.network)
    return refused(
      `${name}: the deposit is ${deposit.token} on ${deposit.chain} ${deposit.network}, not ${refund.token} on ${refund.chain} ${facts.network}`,
    );
  if (depositAddress === null || !sameAddress(deposit.chain, deposit.toAddress, depositAddress))
    return refused(`${name}: the deposit was not made to its session's deposit address`);
  if (deposit.stage !== 'confirmed' || deposit.confirmations < facts.requiredConfirmations)
    return refused(`${name}: the deposit is not confirmed ${facts.requiredConfirmations} blocks deep`);
  if (facts.decimals === undefined) return refused(`${name}: ${refund.token} is not watched on ${refund.chain}`);
  if (refund.amountUsdMicros !== toMicroUnits(refund.amountBaseUnits, facts.decimals))
    return refused(`${name}: ${refund.amountUsdMicros} USD micro-units is not the worth of ${refund.amountBaseUnits} base units`);
  // An underpaid session refunded at expiry, or a failed settlement given back, returns the price's share too; only
  // while no payout exists, since the payout is what pays that share to the merchant.
  const givesBackPrice = UNPAID_MERCHANT_SOURCES.has(refund.source);
  if (givesBackPrice && facts.sessionHasPayout)
    return refused(`${name}: its session has a payout, so the share of the price is the merchant's, not the customer's`);
  const refundable = deposit.amount - (givesBackPrice ? 0n : facts.merchantShare) - facts.refundedBefore;
  if (refund.amountBaseUnits > refundable)
    return refused(
      `${name}: ${refund.amountBaseUnits} base units asked of a deposit of ${deposit.amount}, of which the price took ${givesBackPrice ? 0n : facts.merchantShare} and other refunds ${facts.refundedBefore}`,
    );
  const { depositedUsdMicros, paidOutUsdMicros, refundedUsdMicros } = facts.session;
  // Whatever the rows say of who owns which deposit, no more leaves a session than arrived in it.
  if (paidOutUsdMicros + refundedUsdMicros + refund.amountUsdMicros > depositedUsdMicros)
    return refused(
      `${name}: its session received ${depositedUsdMicros} USD micro-units, paid out ${paidOutUsdMicros} and refunded ${refundedUsdMicros}; ${refund.amountUsdMicros} more is not there`,
    );
  return BACKED;
}

/** The facts a merchant's refund is judged on, in USDC base units. */
export interface MerchantBacking {
  refund: RefundToPay;
  /** The session's payouts that landed. */
  paidOut: bigint;
  /** The session's other merchant refunds the signer wrote and has not seen fail. */
  refundedBefore: bigint;
  /** What the merchant owes the service now (merchant_receivable). */
  receivable: bigint;
  /** The fee the merchant owes on top of the amount (policy `merchant`). */
  merchantFee: bigint;
  /** The most the merchant may owe. */
  limit: bigint;
}

export function judgeMerchantBacking(facts: MerchantBacking): RefundVerdict {
  const { refund, paidOut, refundedBefore, receivable, merchantFee, limit } = facts;
  const name = `refund ${refund.id}`;
  if (refund.chain !== 'solana' || refund.token !== 'USDC' || refund.amountBaseUnits !== refund.amountUsdMicros)
    return refused(`${name}: a merchant's refund is of Solana USDC, one unit per USD micro-unit`);
  if (refund.amountUsdMicros > paidOut - refundedBefore)
    return refused(
      `${name}: ${refund.amountUsdMicros} asked, and the session's payouts paid the merchant ${paidOut} of which ${refundedBefore} was refunded already`,
    );
  const owed = receivable + refund.amountUsdMicros + merchantFee;
  if (owed > limit) return refused(`${name}: the merchant would owe ${owed} USDC base units for refunds, above its limit of ${limit}`);
  return BACKED;
}
