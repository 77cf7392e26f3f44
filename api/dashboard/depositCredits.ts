// A session's unmatched deposits (another token or chain than its pair) as the dashboard shows them, each with its
// refund and whether the merchant may credit it to the session instead (docs/dashboard.md#crediting-an-unmatched-deposit),
// and the action itself: judged here on the read model for a clear answer, decided by the session's workflow
// (its creditDeposit update), which writes the credit.
import type { DepositRecord } from '../../db/repositories/sessionTimeline';
import type { SessionView } from '../../db/repositories/sessions';
import type { RefundListing } from '../../db/repositories/refundListing';
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import { tokenContract } from '../../domain/chains/tokenContracts';
import { CREDITABLE_SOURCES, depositCreditRefusal, type CreditRefusal } from '../../domain/refunds/depositCredit';
import { CLOSED_STATUSES } from '../../domain/wire/status';

const keyOf = (d: { chain: string; txHash: string; logIndex: number }) => `${d.chain}:${d.txHash}:${d.logIndex}`;

/** The deposit's judgement, on the session's row, its deposits and its refunds as the read model has them. */
export function creditJudgement(
  session: Pick<SessionView, 'status' | 'expiresAt' | 'supportedTokens'>,
  deposits: readonly DepositRecord[],
  refunds: readonly RefundListing[],
  deposit: DepositRecord,
  minimumDepositMicro: bigint,
  now: Date,
): { refund: RefundListing | undefined; refusal: CreditRefusal | undefined } {
  const refund = refunds.find((r) => r.deposit && r.source !== 'merchant' && keyOf(r.deposit) === keyOf(deposit));
  const decimals = tokenContract(deposit.token as TokenSymbol, deposit.chain, deposit.network)?.decimals;
  const counted = deposits.filter((d) => d.credited || (d.stage === 'detected' && !d.late));
  const refusal =
    decimals === undefined
      ? { reason: 'not_accepted' as const, message: `${deposit.token} on ${deposit.chain} is not a token this service takes` }
      : depositCreditRefusal(
          {
            chain: deposit.chain,
            token: deposit.token as TokenSymbol,
            amountBaseUnits: deposit.amountBaseUnits,
            decimals,
            refund: refund ? { source: refund.source, status: refund.status } : null,
          },
          {
            open: !CLOSED_STATUSES.has(session.status) && session.expiresAt > now,
            supportedTokens: session.supportedTokens,
            countedPairs: counted.map((d) => ({ chain: d.chain, token: d.token as TokenSymbol })),
            minimumDepositMicro,
          },
        );
  return { refund, refusal };
}

/** The deposits another pair could have credited, each with its refund and whether it can be credited now. */
export function unmatchedDepositsJson(
  session: Pick<SessionView, 'status' | 'expiresAt' | 'supportedTokens'>,
  deposits: readonly DepositRecord[],
  refunds: readonly RefundListing[],
  minimumDepositMicro: bigint,
  now: Date,
) {
  return deposits.flatMap((d) => {
    const { refund, refusal } = creditJudgement(session, deposits, refunds, d, minimumDepositMicro, now);
    if (!refund || !CREDITABLE_SOURCES.has(refund.source)) return [];
    return [
      {
        chain: d.chain as Chain,
        tx_hash: d.txHash,
        log_index: d.logIndex,
        token: d.token,
        credited: d.credited,
        refund: { refund_id: refund.id, status: refund.status, source: refund.source },
        creditable: refusal === undefined,
        /** Why it cannot be credited, in words; null when it can. */
        credit_refusal: refusal?.message ?? null,
      },
    ];
  });
}
