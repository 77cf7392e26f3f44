// What the signer checks before it writes a payout, and again each time it signs one
// (docs/settlement.md#paid-only-on-the-indexers-facts). A payout request comes from a workflow input, which anyone who
// can reach the Temporal frontend can write, so none of its fields is believed: the merchant paid is the payment's
// session's merchant, the amount is what the indexer's credited deposits owe at the quoted price, and the wallet
// signed to is that merchant's settlement wallet as it stands when the transaction is signed.
import type { SessionStatus } from '../wire/status';
import type { Mode } from '../wire/session';
import { TREASURY_PROVIDER, type SettlementRoute } from './settlementRoute';
import { depositShares, type QuotedPrice } from './unitOwnership';

export type BindingVerdict = { kind: 'bound' } | { kind: 'refused'; reason: string };

/**
 * Statuses no settlement begins from: nothing was chosen or paid, or the session ended unpaid. The paid statuses
 * themselves (completed, overpaid, underpaid at expiry) are written after the payout is accepted (the session settles
 * before it moves), and a session whose settlement was refused is failed when an operator settles it again, so the
 * signer cannot ask for them; what was paid it judges from the indexer's deposits (payoutOwed).
 */
const UNPAID_STATUSES: ReadonlySet<SessionStatus> = new Set<SessionStatus>(['pending', 'expired', 'cancelled']);

/** The database's record of a payment the signer is asked to pay out. */
export interface PaymentRecord {
  paymentId: string;
  /** The payment's session's merchant and mode: the API wrote them, the worker's role cannot change them. */
  merchantId: string;
  mode: Mode;
  status: SessionStatus;
  /** The route the signer's own configuration gives the payment's pair (settlementRoute). */
  route: SettlementRoute;
  /** The payment's payout part of the settlements row: the settlement workflow writes it pending before the payout. */
  settlement?: { provider: string; status: 'pending' | 'settled' };
}

/**
 * Whether the request names the payment's own merchant and mode, for a payment its settlement route pays from the
 * treasury. At `signing`, of a row written after these checks, the session's status and settlement row are not asked
 * again: an operator's new payout generation signs for a session failed on its first one.
 */
export function judgePayoutBinding(
  request: { paymentId: string; merchantId: string; mode: Mode },
  payment: PaymentRecord,
  stage: 'writing' | 'signing' = 'writing',
): BindingVerdict {
  const refused = (why: string): BindingVerdict => ({ kind: 'refused', reason: `payment ${request.paymentId} ${why}; not paid` });
  if (payment.merchantId !== request.merchantId)
    return refused(`belongs to merchant ${payment.merchantId}, not to ${request.merchantId}, the merchant the payout was asked for`);
  if (payment.mode !== request.mode) return refused(`is a ${payment.mode} payment, not ${request.mode}`);
  if (payment.route !== 'treasury') return refused(`is not settled by the treasury in ${payment.mode} mode (route ${payment.route})`);
  if (stage === 'signing') return { kind: 'bound' };
  if (UNPAID_STATUSES.has(payment.status)) return refused(`has a ${payment.status} session: nothing of it is paid`);
  if (payment.settlement?.provider !== TREASURY_PROVIDER)
    return refused(`has no treasury settlement begun (settlements row: ${payment.settlement?.provider ?? 'none'})`);
  if (payment.settlement.status === 'settled') return refused('is already settled');
  return { kind: 'bound' };
}

/**
 * USDC base units the treasury owes for a payment's credited deposits (amounts in the quoted token's base units) at
 * its quoted price, less what credited bank transfers paid: the sum of the deposits' payables (depositShares), which is
 * what the settlement workflow asks for (cryptoPartOwed), to the unit.
 */
export function payoutOwed(creditedAmounts: readonly bigint[], price: QuotedPrice): bigint {
  return depositShares(creditedAmounts, price).reduce((sum, share) => sum + share.payableUsdc, 0n);
}

/** The request's amount must be what is owed, to the unit: neither more (unbacked) nor less (a payout happens once). */
export function judgePayoutAmount(paymentId: string, requested: bigint, owed: bigint): BindingVerdict {
  if (requested === owed) return { kind: 'bound' };
  return {
    kind: 'refused',
    reason: `payment ${paymentId}: the indexer's credited deposits owe ${owed} USDC base units at the quoted price, the payout asks for ${requested}; not paid`,
  };
}

/**
 * The wallet a payout signs to must be the settlement wallet its payment's merchant has now: the payouts row is
 * writable by the worker's role, the merchant's wallet is not. A merchant that changed wallets after the row was written
 * is refused too: an operator decides which wallet is paid (docs/settlement.md#paid-only-on-the-indexers-facts).
 */
export function judgePayoutWallet(
  payout: { paymentId: string; merchantId: string; merchantWallet: string },
  current: { merchantId: string; settlementWallet: string | null },
): BindingVerdict {
  const refused = (why: string): BindingVerdict => ({ kind: 'refused', reason: `payout of ${payout.paymentId} ${why}; not signed` });
  if (payout.merchantId !== current.merchantId)
    return refused(`names merchant ${payout.merchantId}, but its payment belongs to ${current.merchantId}`);
  if (payout.merchantWallet !== current.settlementWallet)
    return refused(
      `pays wallet ${payout.merchantWallet}, but merchant ${current.merchantId}'s settlement wallet is ${current.settlementWallet ?? 'unset'}`,
    );
  return { kind: 'bound' };
}
