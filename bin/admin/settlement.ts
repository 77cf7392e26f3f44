// `settlement list | show`: the treasury payouts (docs/settlement.md), what is stuck, and everything Postgres holds
// about one payout: its chain intent, settlements row and ledger entries. `settlement awaiting-approval | approve`: the
// live payouts the signer holds above their merchant's daily limit, and an operator's approval of one
// (docs/settlement.md#daily-limit). `settlement refund`: a failed settlement given back to the customer instead.
import {
  findIntentDetail,
  findPayoutListing,
  findSettlementRow,
  ledgerEntriesFor,
  listPayouts,
  STUCK_AFTER_SECONDS,
  type PayoutListing,
} from '../../db/repositories/payoutListing';
import { payoutIntentId } from '../../domain/chainWrites/solanaChainIntent';
import { payoutTransfer } from '../../domain/ledger/ledger';
import type { SettlementInput, settlePayment } from '../../workflows/settlePayment';
import { z } from '../../domain/wire/validationMessages';
import { CliError, defineCommand, integerOption, table, when, type CommandGroup } from './cli';
import { refundFailedSettlement, repayPayment, resettlePayment } from './settlementRemedies';
import { approvePayout, unwrittenLivePayouts } from '../../db/repositories/payoutApprovals';
import { paymentTerms } from '../../db/repositories/payments';
import { judgeDailyLimit } from '../../domain/settlement/dailyLimit';

export const PaymentIdOption = z.string().regex(/^pay_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be a payment id (pay_…)');

/** USDC base units (6 decimals) as exact text: never through a JS number. */
export function usdcText(baseUnits: bigint): string {
  return decimalText(baseUnits, 6);
}

/** Base units as the exact decimal amount of a token with `decimals` decimals. */
export function decimalText(baseUnits: bigint, decimals: number): string {
  const negative = baseUnits < 0n;
  const digits = (negative ? -baseUnits : baseUnits).toString().padStart(decimals + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
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
  generation: p.generation,
  intent_id: p.intentId,
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
              payouts.map((p) => [
                p.paymentId,
                p.sessionId,
                p.mode,
                usdcText(p.amount),
                p.status,
                ageText(p.ageSeconds),
                p.signature ?? '-',
              ]),
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
    const payout = await findPayoutListing(sql, input.payment);
    // Every generation's postings, the failed ones' release included; the chain intent of the current one.
    const generations = Array.from({ length: payout?.generation ?? 1 }, (_, i) => payoutIntentId(input.payment, i + 1));
    const [intent, settlement, ledger] = await Promise.all([
      findIntentDetail(sql, payout?.intentId ?? payoutIntentId(input.payment)),
      findSettlementRow(sql, input.payment),
      Promise.all(generations.map((reference) => ledgerEntriesFor(sql, reference))).then((all) => all.flat()),
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
            nonce_account: intent.nonceAccount,
            nonce_value: intent.nonceValue,
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
      ledger_entries: ledger.map((e) => ({
        group_id: e.groupId,
        account: e.account,
        asset: e.asset,
        amount: e.amount,
        created_at: e.createdAt.toISOString(),
      })),
    };
    const text = [
      `payment ${input.payment}`,
      payout
        ? `payout      ${payout.status}${payout.generation > 1 ? ` (generation ${payout.generation})` : ''}, ${usdcText(payout.amount)} USDC (${payout.mode}) to ${payout.merchantId}, session ${payout.sessionId}, from ${payout.treasury}, age ${ageText(payout.ageSeconds)}`
        : 'payout      none',
      intent
        ? `intent      ${intent.id} ${intent.status}, signature ${intent.signature ?? '-'}, ${intent.nonceAccount ? `durable nonce ${intent.nonceValue} of ${intent.nonceAccount}` : `last valid block height ${intent.lastValidBlockHeight ?? '-'}`}, slot ${intent.slot ?? '-'}`
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
      ...(ledger.length === 0
        ? ['ledger      none']
        : [
            'ledger',
            ...table(
              ['GROUP', 'ACCOUNT', 'ASSET', 'AMOUNT'],
              ledger.map((e) => [e.groupId, e.account, e.asset, e.amount]),
            ).map((l) => `  ${l}`),
          ]),
    ];
    return { json, text };
  },
});

/** Closed without settling: the only states a retry starts the workflow again from. */
const RETRYABLE_CLOSE = new Set(['FAILED', 'TERMINATED', 'TIMED_OUT', 'CANCELLED']);

const retry = defineCommand({
  name: 'retry',
  summary: 'start settle_<pay_…> again when it failed or was terminated; never pays twice (one payout per payment, ever)',
  positional: { name: 'payment', value: '<pay_…>', description: 'the payment whose settlement to retry (required)' },
  options: {},
  schema: z.object({ payment: PaymentIdOption }),
  async run(context, input) {
    const sql = context.sql();
    const [payout, settlement] = await Promise.all([findPayoutListing(sql, input.payment), findSettlementRow(sql, input.payment)]);
    const workflowId = `settle_${input.payment}`;
    if (settlement?.status === 'settled') {
      return {
        json: {
          payment_id: input.payment,
          workflow_id: workflowId,
          started: false,
          already_paid: true,
          settlement_reference: settlement.reference,
          payout_status: payout?.status ?? null,
        },
        text: [
          `payment ${input.payment} is already paid (settlement ${settlement.provider} ${settlement.reference ?? '-'}, payout ${payout?.status ?? 'none'}): nothing started`,
        ],
        targets: [input.payment],
      };
    }
    // The workflow's input is rebuilt from the payout row alone: the amount, merchant and mode it fixed.
    if (!payout)
      throw new CliError(
        `payment ${input.payment} has no payout: retry rebuilds the settlement from its payout row, and there is none to rebuild from`,
      );
    if (payout.status === 'failed') {
      throw new CliError(
        `payout of ${input.payment} failed on chain (${payout.signature ?? '-'}): a retry would fail the same way; see settlement show, and settlement repay to pay it again under a new generation`,
      );
    }
    const temporal = await context.temporal();
    const { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } = await import('@temporalio/client');
    let previous: string | undefined;
    try {
      previous = (await temporal.workflow.getHandle(workflowId).describe()).status.name;
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
    if (previous === 'RUNNING') throw new CliError(`${workflowId} is running (payout ${payout.status}): nothing to retry`);
    if (previous !== undefined && !RETRYABLE_CLOSE.has(previous))
      throw new CliError(
        `${workflowId} is ${previous.toLowerCase()} and the payout ${payout.status}: a retry starts only a failed or terminated settlement`,
      );
    const args: SettlementInput = {
      route: 'treasury',
      paymentId: payout.paymentId,
      sessionId: payout.sessionId,
      merchantId: payout.merchantId,
      mode: payout.mode,
      amountUsdcBaseUnits: payout.amount.toString(),
    };
    let runId: string;
    try {
      const handle = await temporal.workflow.start<typeof settlePayment>('settlePayment', {
        workflowId,
        taskQueue: context.config.temporal.taskQueue,
        args: [args],
      });
      runId = handle.firstExecutionRunId;
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError)
        throw new CliError(`${workflowId} was started by someone else meanwhile: nothing to retry`);
      throw error;
    }
    return {
      json: {
        payment_id: input.payment,
        workflow_id: workflowId,
        run_id: runId,
        started: true,
        already_paid: false,
        previous_status: previous?.toLowerCase() ?? null,
        payout_status: payout.status,
        input: args,
      },
      text: [
        `${workflowId} started again (was ${previous?.toLowerCase() ?? 'not found'}); payout ${payout.status}, ${usdcText(payout.amount)} USDC to ${payout.merchantId}`,
        'the payout row is keyed by the payment: the workflow resumes that payout and cannot pay a second time',
      ],
      warnings: [`the session ${payout.sessionId} keeps its status: the retried settlement completes the settlements row, not the session`],
      targets: [input.payment, workflowId],
    };
  },
});

const resettle = defineCommand({
  name: 'resettle',
  summary: 'settle again a payment whose settlement was refused before any payout, once the cause is fixed; idempotent',
  positional: { name: 'payment', value: '<pay_…>', description: 'the payment to settle again (required)' },
  options: {},
  schema: z.object({ payment: PaymentIdOption }),
  async run(context, input) {
    const outcome = await resettlePayment(
      { sql: context.sql(), client: await context.temporal(), operator: context.operator.name },
      input.payment,
    );
    const json = { payment_id: input.payment, session_id: outcome.sessionId, outcome: outcome.kind, started: outcome.kind === 'started' };
    switch (outcome.kind) {
      case 'already_settled':
        return {
          json: { ...json, provider: outcome.provider, reference: outcome.reference },
          text: [`payment ${input.payment} is already settled (${outcome.provider} ${outcome.reference ?? '-'}): nothing started`],
          targets: [input.payment],
        };
      case 'in_progress':
        return { json: { ...json, why: outcome.why }, text: [`${outcome.why}: nothing started`], targets: [input.payment] };
      case 'started':
        return {
          json: { ...json, run_id: outcome.runId },
          text: [
            `session ${outcome.sessionId} runs again (run ${outcome.runId}) to settle ${input.payment}: settle_${input.payment} pays it, and the session moves from failed to its paid status with its webhook`,
            `follow it with: checkout-admin settlement show ${input.payment}`,
          ],
          targets: [input.payment, outcome.sessionId],
        };
    }
  },
});

const repay = defineCommand({
  name: 'repay',
  summary: 'pay a payout that landed and failed again, under a new payout generation (--confirm), and settle its session',
  positional: { name: 'payment', value: '<pay_…>', description: 'the payment whose failed payout to pay again (required)' },
  options: { confirm: { description: 'the operator has decided to pay it again from the treasury (required to start a generation)' } },
  schema: z.object({ payment: PaymentIdOption, confirm: z.boolean().optional() }),
  async run(context, input) {
    const outcome = await repayPayment(
      { sql: context.sql(), client: await context.temporal(), operator: context.operator.name },
      input.payment,
      input.confirm === true,
    );
    const { payout } = outcome;
    const json = {
      payment_id: input.payment,
      session_id: outcome.sessionId,
      generation: payout.generation,
      intent_id: payout.intentId,
      new_generation: outcome.newGeneration,
      payout_status: payout.status,
      outcome: outcome.kind,
      started: outcome.kind === 'started',
    };
    const generation = outcome.newGeneration
      ? `payout generation ${payout.generation} (${payout.intentId}) of ${usdcText(payoutTransfer(payout))} USDC written${payout.netted + payout.fee > 0n ? ` (${usdcText(payout.amount)} less ${usdcText(payout.netted)} netted from the merchant's receivable and a fee of ${usdcText(payout.fee)}, which stand)` : ''}; the failed one is kept in failed_payouts`
      : `payout generation ${payout.generation} (${payout.intentId}) is ${payout.status}: no new generation`;
    const next =
      outcome.kind === 'started'
        ? `session ${outcome.sessionId} runs again (run ${outcome.runId}) to pay it and settle`
        : outcome.kind === 'in_progress'
          ? `${outcome.why}: nothing started`
          : `payment ${input.payment} is already settled (${outcome.provider} ${outcome.reference ?? '-'}): nothing started`;
    return {
      json,
      text: [generation, next],
      targets: [input.payment, ...(payout.intentId ? [payout.intentId] : []), ...(outcome.kind === 'started' ? [outcome.sessionId] : [])],
    };
  },
});

const refund = defineCommand({
  name: 'refund',
  summary: 'give a failed settlement with no payout back to the customer (--confirm): one settlement_failed refund per credited deposit',
  positional: { name: 'payment', value: '<pay_…>', description: 'the failed payment whose deposits to refund (required)' },
  options: {
    confirm: { description: 'the operator has decided the merchant is not paid and the customer gets the money back (required)' },
  },
  schema: z.object({ payment: PaymentIdOption, confirm: z.boolean().optional() }),
  async run(context, input) {
    const { sessionId, refunds } = await refundFailedSettlement(
      {
        sql: context.sql(),
        client: await context.temporal(),
        taskQueue: context.config.temporal.taskQueue,
        refundClaimDays: context.config.refundClaimDays,
      },
      input.payment,
      input.confirm === true,
    );
    return {
      json: {
        payment_id: input.payment,
        session_id: sessionId,
        refunds: refunds.map((r) => ({
          refund_id: r.id,
          chain: r.chain,
          token: r.token,
          amount_base_units: r.amountBaseUnits.toString(),
          deposit_tx_hash: r.deposit?.txHash ?? null,
          status: r.status,
        })),
      },
      text:
        refunds.length === 0
          ? [`payment ${input.payment} has no credited deposit worth a refund: nothing opened`]
          : [
              `session ${sessionId}: ${refunds.length} settlement_failed refund(s), each waiting for the customer's claim; the merchant is not paid`,
              ...table(
                ['REFUND', 'CHAIN', 'TOKEN', 'BASE UNITS', 'DEPOSIT', 'STATUS'],
                refunds.map((r) => [r.id, r.chain, r.token, r.amountBaseUnits.toString(), r.deposit?.txHash ?? '-', r.status]),
              ),
            ],
      targets: [input.payment, sessionId, ...refunds.map((r) => r.id)],
    };
  },
});

/** SETTLEMENT_DAILY_LIMIT_USDC of this process, in USDC base units: the signer's, where both are given the same. */
const dailyLimitOf = (context: { config: { settlementDailyLimitUsdc: number | undefined } }) =>
  context.config.settlementDailyLimitUsdc === undefined ? undefined : BigInt(context.config.settlementDailyLimitUsdc) * 1_000_000n;

const awaitingApproval = defineCommand({
  name: 'awaiting-approval',
  summary: "live payouts held above their merchant's daily limit (SETTLEMENT_DAILY_LIMIT_USDC) until an operator approves",
  options: {},
  readOnly: true,
  schema: z.object({}),
  async run(context) {
    const limit = dailyLimitOf(context);
    const held =
      limit === undefined
        ? []
        : (await unwrittenLivePayouts(context.sql())).filter(
            (p) => judgeDailyLimit({ ...p, mode: 'live' }, { paidInWindow: p.paidInWindow, limit }).kind === 'awaiting_approval',
          );
    return {
      json: {
        daily_limit_usdc: limit === undefined ? null : usdcText(limit),
        payouts: held.map((p) => ({
          payment_id: p.paymentId,
          session_id: p.sessionId,
          merchant_id: p.merchantId,
          amount_usdc: usdcText(p.amount),
          paid_in_window_usdc: usdcText(p.paidInWindow),
        })),
      },
      text:
        limit === undefined
          ? ['no daily limit (SETTLEMENT_DAILY_LIMIT_USDC=none): no payout waits for an approval']
          : held.length === 0
            ? [`no live payout waits for an approval (daily limit ${usdcText(limit)} USDC)`]
            : table(
                ['PAYMENT', 'SESSION', 'MERCHANT', 'AMOUNT USDC', 'PAID 24H USDC'],
                held.map((p) => [p.paymentId, p.sessionId, p.merchantId, usdcText(p.amount), usdcText(p.paidInWindow)]),
              ),
    };
  },
});

const approve = defineCommand({
  name: 'approve',
  summary: "approve a live payout held above its merchant's daily limit: the signer writes it at its next attempt; idempotent",
  options: { payment: { value: '<pay_…>', description: 'the live payment whose payout to approve (required)' } },
  schema: z.object({ payment: PaymentIdOption }),
  async run(context, input) {
    const sql = context.sql();
    const payment = await paymentTerms(sql, input.payment);
    if (!payment) throw new CliError(`payment ${input.payment} does not exist`);
    if (payment.mode !== 'live')
      throw new CliError(`payment ${input.payment} is a ${payment.mode} payment: only live payouts are held for an approval`);
    const { approval, created } = await approvePayout(sql, input.payment, context.operator.name);
    return {
      json: {
        payment_id: input.payment,
        merchant_id: payment.merchantId,
        operator: approval.operator,
        approved_at: approval.approvedAt.toISOString(),
        already_approved: !created,
      },
      text: [
        created
          ? `payout of ${input.payment} (merchant ${payment.merchantId}) approved by ${approval.operator}: the signer writes it at its next attempt, within a minute`
          : `payout of ${input.payment} was already approved by ${approval.operator} at ${approval.approvedAt.toISOString()}: nothing changed`,
      ],
      targets: [input.payment],
    };
  },
});

export const settlementCommands: CommandGroup = {
  name: 'settlement',
  summary: 'treasury payouts to merchants',
  commands: [list, show, retry, resettle, repay, refund, awaitingApproval, approve],
};
