// One session as the dashboard's detail page shows it: the session, its timeline of status changes with
// their reasons, the deposits with block explorer links and what became of each (credited, or owed back to the
// customer and why, with the refund that returns it), what the session owes back in all, its refunds, the bank
// transfers marked received, the settlement, and every webhook delivery; and the unmatched deposits the merchant may
// credit to the session instead of refunding them (depositCredits.ts).
import type { Config } from '../../config/env';
import { listBankReceipts } from '../../db/repositories/bankReceipts';
import { findPayment } from '../../db/repositories/paymentProgress';
import { listRefunds } from '../../db/repositories/refundListing';
import { findSession } from '../../db/repositories/sessions';
import {
  findSettlement,
  findStatusReason,
  listSessionDeposits,
  listStatusChanges,
  type DepositRecord,
} from '../../db/repositories/sessionTimeline';
import { listWebhookDeliveries } from '../../db/repositories/webhookHistory';
import { transactionExplorerUrl } from '../../domain/chains/blockExplorers';
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import { tokenContract } from '../../domain/chains/tokenContracts';
import { centsToUsd } from '../../domain/money/money';
import { toSixDecimalString } from '../../domain/money/pricing';
import type { Mode } from '../../domain/wire/session';
import { CLOSED_STATUSES, type SessionStatus } from '../../domain/wire/status';
import { depositVerdict, depositVerdictWords, owesCustomer } from '../../domain/session/depositVerdict';
import { STATUS_REASONS } from '../../domain/session/statusReasons';
import type { AppDeps } from '../context';
import { sessionNotFound } from '../errors';
import { unmatchedDepositsJson } from './depositCredits';
import { dashboardRefundJson } from './refundJson';
import { presentSession } from '../routes/sessions/present';
import { webhookDeliveryJson } from '../webhookDeliveryJson';

const USDC_DECIMALS = 6;

export async function sessionDetail(
  deps: Pick<AppDeps, 'sql' | 'registry' | 'offer'> & { config: Pick<Config, 'minimumDepositCents'> },
  owner: { merchantId: string; mode: Mode },
  sessionId: string,
) {
  const { sql } = deps;
  const session = await findSession(sql, owner, sessionId);
  if (!session) throw sessionNotFound();
  const [reason, changes, deposits, bankReceipts, settlement, payment, deliveries, refunds] = await Promise.all([
    findStatusReason(sql, sessionId),
    listStatusChanges(sql, sessionId),
    listSessionDeposits(sql, sessionId),
    listBankReceipts(sql, sessionId),
    findSettlement(sql, sessionId),
    findPayment(sql, sessionId),
    listWebhookDeliveries(sql, sessionId),
    listRefunds(sql, { ...owner, sessionId, limit: 1000 }),
  ]);
  const depositKey = (d: { chain: string; txHash: string; logIndex: number }) => `${d.chain}:${d.txHash}:${d.logIndex}`;
  // Each automatic refund returns one deposit (all of it, or its excess), and a deposit has at most one.
  const refundOfDeposit = new Map(refunds.flatMap((r) => (r.deposit ? [[depositKey(r.deposit), r.id] as const] : [])));
  // The session's own minimum is not kept after its workflow starts; the configured one is what new sessions use.
  const terms = {
    payment: payment ?? null,
    closedAt: changes.find((c) => CLOSED_STATUSES.has(c.to as SessionStatus))?.at,
    minimumDepositMicro: BigInt(deps.config.minimumDepositCents) * 10_000n,
  };
  const verdictOf = (d: DepositRecord) => {
    const verdict = depositVerdict(d, terms);
    return { verdict: depositVerdictWords(verdict), owes_customer: owesCustomer(verdict) };
  };
  const decimalsOf = (d: { chain: Chain; token: string; network: 'mainnet' | 'testnet' }) =>
    tokenContract(d.token as TokenSymbol, d.chain, d.network)?.decimals ?? payment?.decimals;
  const amountOf = (units: bigint, decimals: number | undefined) =>
    decimals === undefined ? units.toString() : toSixDecimalString(units, decimals);
  const owed = new Map<string, { chain: Chain; token: string; units: bigint; decimals: number | undefined }>();
  for (const d of deposits) {
    if (d.refundDueBaseUnits === 0n) continue;
    const key = `${d.token} ${d.chain}`;
    const sum = owed.get(key) ?? { chain: d.chain, token: d.token, units: 0n, decimals: decimalsOf(d) };
    sum.units += d.refundDueBaseUnits;
    owed.set(key, sum);
  }
  return {
    session: presentSession(session, deps.registry, deps.offer),
    status_reason: reason ?? STATUS_REASONS[session.status as SessionStatus] ?? '',
    payment: payment
      ? {
          token: payment.token,
          chain: payment.chain,
          deposit_address: payment.depositAddress,
          amount: toSixDecimalString(payment.expectedBaseUnits, payment.decimals),
        }
      : null,
    timeline: changes.map((c) => ({
      from: c.from,
      to: c.to,
      at: c.at.toISOString(),
      reason: c.reason ?? STATUS_REASONS[c.to as SessionStatus] ?? '',
    })),
    deposits: deposits.map((d) => ({
      chain: d.chain,
      tx_hash: d.txHash,
      log_index: d.logIndex,
      explorer_url: transactionExplorerUrl(d.chain, d.network, d.txHash),
      token: d.token,
      amount: amountOf(d.amountBaseUnits, decimalsOf(d)),
      from_address: d.fromAddress,
      block_number: d.blockNumber.toString(),
      stage: d.stage,
      confirmations: d.confirmations,
      credited: d.credited,
      late: d.late,
      ...verdictOf(d),
      owed_back: d.refundDueBaseUnits > 0n ? amountOf(d.refundDueBaseUnits, decimalsOf(d)) : null,
      refund_id: refundOfDeposit.get(depositKey(d)) ?? null,
      seen_at: d.seenAt.toISOString(),
    })),
    // Deposits in another token or chain, with their refunds and whether the merchant may credit them instead.
    unmatched_deposits: unmatchedDepositsJson(session, deposits, refunds, {
      registry: deps.registry,
      minimumDepositMicro: terms.minimumDepositMicro,
      now: new Date(),
    }),
    // From the ledger's refund_due postings of the session's deposits, per token and chain.
    owed_back: [...owed.values()].map((o) => ({ token: o.token, chain: o.chain, amount: amountOf(o.units, o.decimals) })),
    // Oldest first, like the deposits.
    refunds: refunds.map(dashboardRefundJson).reverse(),
    // A credited transfer counts toward the session; one that is not is owed back to the customer (refund due).
    bank_receipts: bankReceipts.map((r) => ({
      reference: r.reference,
      amount_usd: centsToUsd(BigInt(r.amountUsdCents)),
      received_by: r.receivedBy,
      credited: r.credited,
      recorded_at: r.recordedAt.toISOString(),
    })),
    settlement: settlement
      ? {
          provider: settlement.provider,
          reference: settlement.reference,
          amount_usdc: toSixDecimalString(settlement.amountUsdcBaseUnits, USDC_DECIMALS),
          // An optional extension: the part of the gross that repaid the merchant's receivable (docs/refunds.md#funding).
          ...(settlement.nettedUsdcBaseUnits > 0n
            ? { netted_usdc: toSixDecimalString(settlement.nettedUsdcBaseUnits, USDC_DECIMALS) }
            : {}),
          // An optional extension: the operator's fee kept of the gross (docs/settlement.md#fees).
          ...(settlement.feeUsdcBaseUnits > 0n ? { fee_usdc: toSixDecimalString(settlement.feeUsdcBaseUnits, USDC_DECIMALS) } : {}),
          chain: settlement.chain,
          settled_at: settlement.settledAt.toISOString(),
        }
      : null,
    webhook_deliveries: deliveries.map(webhookDeliveryJson),
  };
}
