// What a merchant may still refund on a session (docs/refunds.md#api): what the customer paid, in USD micro-units, less
// what the session's refunds already hold. Pure; the API reads the facts and refuses what this refuses.
import type { SessionStatus } from '../wire/status';
import type { RefundSource } from './refundSource';
import type { RefundStatus } from './refundStatus';

/** Only a session the customer paid has money of theirs the merchant could return. */
export const REFUNDABLE_SESSION_STATUSES: ReadonlySet<SessionStatus> = new Set<SessionStatus>(['completed', 'overpaid', 'underpaid']);

/** A refund that ended without money moving holds none of the session's money any more. */
const RELEASED: ReadonlySet<RefundStatus> = new Set<RefundStatus>(['failed', 'expired', 'cancelled']);

/**
 * Sources that return money the session credited. A late, wrong-token, wrong-chain or dust deposit was never credited:
 * its refund returns money beside the payment, so it leaves what the merchant may refund as it was.
 */
const OF_CREDITED_MONEY: ReadonlySet<RefundSource> = new Set<RefundSource>([
  'merchant',
  'overpayment',
  'underpaid_expired',
  'settlement_failed',
]);

export interface PaidAmount {
  amountBaseUnits: bigint;
  decimals: number;
}

export interface RefundableFacts {
  sessionStatus: SessionStatus;
  /** The session's credited deposits, each in its token's base units. */
  creditedDeposits: readonly PaidAmount[];
  /**
   * A test session paid through simulate has no deposit: its payment's made-up receipt stands for what was paid, since
   * the test signer pays test refunds from the test treasury. Undefined for every other session.
   */
  simulatedReceipt: PaidAmount | undefined;
  refunds: readonly { source: RefundSource; status: RefundStatus; amountUsdMicros: bigint }[];
}

export type Refundable = { ok: true; paidUsdMicros: bigint; refundableUsdMicros: bigint } | { ok: false; message: string };

/** Token base units → USD micro-units, one token unit for one dollar, rounded down (bsc's 18 decimals lose the rest). */
export function usdMicrosOf(paid: PaidAmount): bigint {
  return paid.decimals >= 6
    ? paid.amountBaseUnits / 10n ** BigInt(paid.decimals - 6)
    : paid.amountBaseUnits * 10n ** BigInt(6 - paid.decimals);
}

export function refundableAmount(facts: RefundableFacts): Refundable {
  if (!REFUNDABLE_SESSION_STATUSES.has(facts.sessionStatus)) {
    return {
      ok: false,
      message: `A session that is ${facts.sessionStatus} has no payment to refund; only completed, overpaid and underpaid sessions do`,
    };
  }
  const paid = facts.creditedDeposits.length > 0 ? facts.creditedDeposits : facts.simulatedReceipt ? [facts.simulatedReceipt] : [];
  const paidUsdMicros = paid.reduce((sum, p) => sum + usdMicrosOf(p), 0n);
  const held = facts.refunds
    .filter((r) => OF_CREDITED_MONEY.has(r.source) && !RELEASED.has(r.status))
    .reduce((sum, r) => sum + r.amountUsdMicros, 0n);
  const refundableUsdMicros = paidUsdMicros > held ? paidUsdMicros - held : 0n;
  return { ok: true, paidUsdMicros, refundableUsdMicros };
}

export type RefundAmountDecision = { ok: true; amountUsdMicros: bigint } | { ok: false; message: string };

/** The amount a create-refund asks for (`undefined`: all that is left), against what is refundable. */
export function decideRefundAmount(refundableUsdMicros: bigint, requestedUsdMicros: bigint | undefined): RefundAmountDecision {
  if (refundableUsdMicros <= 0n) return { ok: false, message: 'Nothing is left to refund on this session' };
  if (requestedUsdMicros === undefined) return { ok: true, amountUsdMicros: refundableUsdMicros };
  if (requestedUsdMicros > refundableUsdMicros) {
    return {
      ok: false,
      message: `amount_usd ${formatUsdMicros(requestedUsdMicros)} is more than the ${formatUsdMicros(refundableUsdMicros)} still refundable on this session`,
    };
  }
  return { ok: true, amountUsdMicros: requestedUsdMicros };
}

/** Micro-units as a dollar amount with its significant decimals, for messages. */
export function formatUsdMicros(micros: bigint): string {
  const fraction = (micros % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${micros / 1_000_000n}${fraction.length > 0 ? `.${fraction.padEnd(2, '0')}` : ''}`;
}
