// Whether the merchant may credit an unmatched deposit to its session instead of refunding it
// (docs/refunds.md#crediting-an-unmatched-deposit). The dashboard asks it to show the button, the session workflow to
// decide; a refusal names why. Pure.
import type { Chain, TokenChainPairs, TokenSymbol } from '../chains/chains';
import { toMicroUnits } from '../session/sessionLedger';
import type { RefundSource } from './refundSource';
import type { RefundStatus } from './refundStatus';

/** Sources of a deposit another pair than the session's could have credited: only these can be credited after all. */
export const CREDITABLE_SOURCES: ReadonlySet<RefundSource> = new Set<RefundSource>(['wrong_token', 'wrong_chain']);

export interface DepositToCredit {
  chain: Chain;
  token: TokenSymbol;
  amountBaseUnits: bigint;
  decimals: number;
  /** The automatic refund opened for it, if any. */
  refund: { source: RefundSource; status: RefundStatus } | null;
}

export interface SessionForCredit {
  /** Neither closed (expired, completed, cancelled, …) nor past its expiry. */
  open: boolean;
  /** The pairs the session accepts, as select-payment checks them. */
  supportedTokens: TokenChainPairs;
  /** The pairs of what counts toward the session already: deposits credited or still confirming, a credited amount. */
  countedPairs: ReadonlyArray<{ chain: Chain; token: TokenSymbol }>;
  /** Deposits worth less (micro-units of the amount due) are dust. */
  minimumDepositMicro: bigint;
}

export type CreditRefusalReason = 'not_unmatched' | 'dust' | 'closed' | 'not_accepted' | 'refund_moved' | 'other_pair_counted';

export interface CreditRefusal {
  reason: CreditRefusalReason;
  message: string;
}

/** Why the deposit cannot be credited to the session; undefined when it can. */
export function depositCreditRefusal(deposit: DepositToCredit, session: SessionForCredit): CreditRefusal | undefined {
  const pair = `${deposit.token} on ${deposit.chain}`;
  const { refund } = deposit;
  if (!refund || !CREDITABLE_SOURCES.has(refund.source))
    return {
      reason: 'not_unmatched',
      message: refund
        ? `Only a deposit in another token or chain can be credited; this one is refunded as ${refund.source}`
        : 'This deposit is not one kept for a refund',
    };
  if (toMicroUnits(deposit.amountBaseUnits, deposit.decimals) < session.minimumDepositMicro)
    return { reason: 'dust', message: 'This deposit is below the minimum deposit and is only refunded' };
  if (!session.open) return { reason: 'closed', message: 'The session is closed; the deposit can only be refunded' };
  if (!session.supportedTokens[deposit.token]?.includes(deposit.chain))
    return { reason: 'not_accepted', message: `${pair} is not accepted for this session` };
  if (refund.status !== 'pending_claim')
    return { reason: 'refund_moved', message: `Its refund is ${refund.status}, no longer waiting for a claim` };
  if (session.countedPairs.some((p) => p.chain !== deposit.chain || p.token !== deposit.token))
    return { reason: 'other_pair_counted', message: `The session already counts a payment in another pair than ${pair}` };
  return undefined;
}
