// `settlement list | show`: the treasury payouts (docs/settlement.md), what is stuck, and everything Postgres holds
// about one payout: its chain intent, settlements row and ledger entries.
import {
  findIntentDetail,
  findPayoutListing,
  findSettlementRow,
  ledgerEntriesFor,
  listPayouts,
  STUCK_AFTER_SECONDS,
  type PayoutListing,
} from '../../db/repositories/payoutListing';
import { payoutIntentId } from '../../domain/chainIntent';
import { z } from '../../domain/validationMessages';
import { CliError, defineCommand, integerOption, table, when, type CommandGroup } from './cli';

export const PaymentIdOption = z.string().regex(/^pay_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be a payment id (pay_…)');

/** USDC base units (6 decimals) as exact text: never through a JS number. */
export function usdcText(baseUnits: bigint): string {
  const negative = baseUnits < 0n;
  const digits = (negative ? -baseUnits : baseUnits).toString().padStart(7, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -6)}.${digits.slice(-6)}`;
}

/** An age as an operator reads it: 45s, 12m, 3h10m, 2d4h. */
export function ageText(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h${Math.floor((seconds % 3600) / 60)}m`;
  return `${Math.floor(seconds / 86400)}d${Math.floor((seconds % 86400) / 3600)}h`;
}

const payoutJson = (p: PayoutListing) => ({
  payment_id: p.paymentId,
  session_id: p.sessionId,
  merchant_id: p.merchantId,
  mode: p.mode,
  amount_usdc: usdcText(p.amount),
  amount_base_units: p.amount.toString(),
  status: p.status,
  signature: p.signature,
  treasury: p.treasury,
  created_at: p.createdAt.toISOString(),
  age_seconds: p.ageSeconds,
});

const list = defineCommand({
  name: 'list',
  summary: 'list treasury payouts, newest first; --stuck for those an operator must look at',
  options: {
    stuck: { description: `only payouts awaiting liquidity, failed, or not confirmed after ${STUCK_AFTER_SECONDS / 60} minutes` },
    limit: { value: '<n>', description: 'at most this many (1 to 1000, default 50)' },
  },
  readOnly: true,
  schema: z.object({ stuck: z.boolean().optional(), limit: integerOption(1, 1000).optional() }),
  async run(context, input) {
    const payouts = await listPayouts(context.sql(), { stuck: input.stuck === true, limit: input.limit ?? 50 });
    return {
      json: { stuck_only: input.stuck === true, stuck_after_seconds: STUCK_AFTER_SECONDS, payouts: payouts.map(payoutJson) },
      text:
        payouts.length === 0
          ? [input.stuck ? 'no stuck payouts' : 'no payouts']
          : table(
              ['PAYMENT', 'SESSION', 'MODE', 'AMOUNT USDC', 'STATUS', 'AGE', 'SIGNATURE'],
              payouts.map((p) => [p.paymentId, p.sessionId, p.mode, usdcText(p.amount), p.status, ageText(p.ageSeconds), p.signature ?? '-']),
            ),
    };
  },
});

const show = defineCommand({
  name: 'show',
  summary: "one payment's payout, chain intent, settlements row and ledger entries",
  positional: { name: 'payment', value: '<pay_…>', description: 'the payment (required)' },
  options: {},
  readOnly: true,
  schema: z.object({ payment: PaymentIdOption }),
  async run(context, input) {
    const sql = context.sql();
    const [payout, intent, settlement, ledger] = await Promise.all([
      findPayoutListing(sql, input.payment),
      findIntentDetail(sql, payoutIntentId(input.payment)),
      findSettlementRow(sql, input.payment),
      ledgerEntriesFor(sql, payoutIntentId(input.payment)),
    ]);
    if (!payout && !settlement) throw new CliError(`payment ${input.payment} has no payout and no settlement`);
    const json = {
      payment_id: input.payment,
      payout: payout ? payoutJson(payout) : null,
      chain_intent: intent
        ? {
            id: intent.id,
            status: intent.status,
            signature: intent.signature,
            superseded_signatures: intent.supersededSignatures,
            last_valid_block_height: intent.lastValidBlockHeight,
            slot: intent.slot,
            error: intent.error ?? null,
            created_at: intent.createdAt.toISOString(),
            signed_at: intent.signedAt?.toISOString() ?? null,
            broadcast_at: intent.broadcastAt?.toISOString() ?? null,
            confirmed_at: intent.confirmedAt?.toISOString() ?? null,
            finalized_at: intent.finalizedAt?.toISOString() ?? null,
            updated_at: intent.updatedAt.toISOString(),
          }
        : null,
      settlement: settlement
        ? {
            session_id: settlement.sessionId,
            provider: settlement.provider,
            status: settlement.status,
            reference: settlement.reference,
            amount_usdc_base_units: settlement.amountUsdcBaseUnits,
            settled_at: settlement.settledAt?.toISOString() ?? null,
          }
        : null,
      ledger_entries: ledger.map((e) => ({ group_id: e.groupId, account: e.account, asset: e.asset, amount: e.amount, created_at: e.createdAt.toISOString() })),
    };
    const text = [
      `payment ${input.payment}`,
      payout
        ? `payout      ${payout.status}, ${usdcText(payout.amount)} USDC (${payout.mode}) to ${payout.merchantId}, session ${payout.sessionId}, from ${payout.treasury}, age ${ageText(payout.ageSeconds)}`
        : 'payout      none',
      intent
        ? `intent      ${intent.id} ${intent.status}, signature ${intent.signature ?? '-'}, last valid block height ${intent.lastValidBlockHeight ?? '-'}, slot ${intent.slot ?? '-'}`
        : 'intent      none',
      ...(intent
        ? [
            `            created ${when(intent.createdAt)}, signed ${when(intent.signedAt)}, broadcast ${when(intent.broadcastAt)}, confirmed ${when(intent.confirmedAt)}, finalized ${when(intent.finalizedAt)}`,
            `            superseded ${intent.supersededSignatures.length === 0 ? '-' : intent.supersededSignatures.join(', ')}`,
            ...(intent.error ? [`            error ${JSON.stringify(intent.error)}`] : []),
          ]
        : []),
      settlement
        ? `settlement  ${settlement.status} (${settlement.provider}), ${usdcText(BigInt(settlement.amountUsdcBaseUnits))} USDC, reference ${settlement.reference ?? '-'}, settled ${when(settlement.settledAt)}`
        : 'settlement  none',
      ...(ledger.length === 0 ? ['ledger      none'] : ['ledger', ...table(['GROUP', 'ACCOUNT', 'ASSET', 'AMOUNT'], ledger.map((e) => [e.groupId, e.account, e.asset, e.amount])).map((l) => `  ${l}`)]),
    ];
    return { json, text };
  },
});

export const settlementCommands: CommandGroup = { name: 'settlement', summary: 'treasury payouts to merchants', commands: [list, show] };
