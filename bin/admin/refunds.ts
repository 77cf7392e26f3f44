// `refund list|show|stuck`: what operators read about refunds (docs/refunds.md#operator-commands-and-dashboard).
// `refund cancel`: withdraws a refund nobody has been paid for yet, and tells its workflow.
// `refund reissue`: gives an automatic refund that ended unpaid back to the customer, as a new refund with its workflow.
// `refund open-missing`: the reconciliation sweep's opening of the deposit refunds no workflow opened, run now.
import { WorkflowNotFoundError } from '@temporalio/client';
import { MISSING_REFUND_BATCH, openMissingDepositRefunds } from '../../activities/refunds/missingDepositRefunds';
import { refundStarter } from '../../activities/refunds/startRefundWorkflow';
import { depositsWithoutRefund } from '../../db/repositories/automaticRefunds';
import { refundLedgerEntries } from '../../db/repositories/ledgerExplanation';
import {
  findRefundListing,
  listRefunds,
  REFUND_STUCK_AFTER_MINUTES,
  stuckRefunds,
  type RefundListing,
} from '../../db/repositories/refundListing';
import { reissueRefund } from '../../db/repositories/refundReissue';
import { cancelRefund, type Refund } from '../../db/repositories/refunds';
import { refundExpiresAt } from '../../domain/refunds/automaticRefund';
import { holdingsOf } from '../../domain/ledger/ledgerExplanation';
import { REFUND_SIGNALS, refundWorkflowId } from '../../domain/refunds/refundPayment';
import { REFUND_SOURCES } from '../../domain/refunds/refundSource';
import { REFUND_STATUSES } from '../../domain/refunds/refundStatus';
import { REFUND_ID_PATTERN } from '../../domain/wire/ids';
import type { Mode } from '../../domain/wire/session';
import { z } from '../../domain/wire/validationMessages';
import {
  CliError,
  defineCommand,
  integerOption,
  MerchantIdOption,
  ModeOption,
  SessionIdOption,
  table,
  when,
  type CommandGroup,
} from './cli';
import { groupsJson, groupsText, ledgerEntriesText, ledgerEntryJson } from './ledger';
import { ageText, decimalText } from './settlement';

const RefundIdOption = z.string().regex(REFUND_ID_PATTERN, 'Must be a refund id (ref_…)');

const usdText = (micros: bigint) => decimalText(micros, 6);
const destinationText = (r: RefundListing) =>
  r.destination ? `${r.destination.address} (${r.destination.token} on ${r.destination.chain})` : '-';
const ageSeconds = (since: Date) => Math.max(0, Math.floor((Date.now() - since.getTime()) / 1000));

const refundJson = (r: RefundListing) => ({
  refund_id: r.id,
  mode: r.mode,
  merchant_id: r.merchantId,
  session_id: r.sessionId,
  source: r.source,
  status: r.status,
  status_reason: r.statusReason,
  deposit: r.deposit && { chain: r.deposit.chain, tx_hash: r.deposit.txHash, log_index: r.deposit.logIndex },
  token: r.token,
  chain: r.chain,
  amount_base_units: r.amountBaseUnits.toString(),
  amount_usd: usdText(r.amountUsdMicros),
  fee_policy: r.feePolicy,
  destination: r.destination,
  reason: r.reason,
  expires_at: r.expiresAt.toISOString(),
  created_at: r.createdAt.toISOString(),
  claimed_at: r.claimedAt?.toISOString() ?? null,
  completed_at: r.completedAt?.toISOString() ?? null,
  payout: r.payout && {
    status: r.payout.status,
    chain: r.payout.chain,
    token: r.payout.token,
    destination_address: r.payout.destinationAddress,
    amount_base_units: r.payout.amountBaseUnits.toString(),
    fee_base_units: r.payout.feeBaseUnits.toString(),
    intent_id: r.payout.intentId,
    signature: r.payout.signature,
    failure_reason: r.payout.failureReason,
    created_at: r.payout.createdAt.toISOString(),
  },
});

const listTable = (refunds: RefundListing[]) =>
  table(
    ['REFUND', 'MODE', 'MERCHANT', 'SESSION', 'SOURCE', 'STATUS', 'USD', 'CREATED', 'DESTINATION', 'SIGNATURE'],
    refunds.map((r) => [
      r.id,
      r.mode,
      r.merchantId,
      r.sessionId,
      r.source,
      r.status,
      usdText(r.amountUsdMicros),
      when(r.createdAt),
      destinationText(r),
      r.payout?.signature ?? '-',
    ]),
  );

const list = defineCommand({
  name: 'list',
  summary: 'list refunds newest first, by merchant, status or session',
  options: {
    merchant: { value: '<mer_…>', description: 'only this merchant' },
    mode: { value: '<test|live>', description: 'only this mode' },
    status: { value: `<${REFUND_STATUSES.join('|')}>`, description: 'only this status' },
    source: { value: '<source>', description: `only this source (${REFUND_SOURCES.join(', ')})` },
    session: { value: '<cs_…>', description: 'only the refunds of this session' },
    limit: { value: '<n>', description: 'at most this many (1 to 1000, default 50)' },
  },
  readOnly: true,
  schema: z.object({
    merchant: MerchantIdOption.optional(),
    mode: ModeOption.optional(),
    status: z.enum(REFUND_STATUSES).optional(),
    source: z.enum(REFUND_SOURCES).optional(),
    session: SessionIdOption.optional(),
    limit: integerOption(1, 1000).default(50),
  }),
  async run(context, input) {
    const refunds = await listRefunds(context.sql(), {
      ...(input.merchant ? { merchantId: input.merchant } : {}),
      ...(input.mode ? { mode: input.mode } : {}),
      ...(input.status ? { status: input.status } : {}),
      ...(input.source ? { source: input.source } : {}),
      ...(input.session ? { sessionId: input.session } : {}),
      limit: input.limit,
    });
    return { json: { refunds: refunds.map(refundJson) }, text: refunds.length === 0 ? ['no refunds'] : listTable(refunds) };
  },
});

const show = defineCommand({
  name: 'show',
  summary: "one refund: its row, the signer's payment of it and its ledger postings, each group in words",
  positional: { name: 'refund', value: '<ref_…>', description: 'the refund (required)' },
  options: {},
  readOnly: true,
  schema: z.object({ refund: RefundIdOption }),
  async run(context, input) {
    const sql = context.sql();
    const [refund, entries] = await Promise.all([findRefundListing(sql, input.refund), refundLedgerEntries(sql, input.refund)]);
    if (!refund) throw new CliError(`no refund ${input.refund}`);
    const payout = refund.payout;
    const holdings = holdingsOf(entries);
    return {
      json: {
        ...refundJson(refund),
        ledger_entries: entries.map(ledgerEntryJson),
        groups: groupsJson(entries),
        holdings: holdings.map((h) => ({ asset: h.asset, account: h.account, amount: h.amount.toString() })),
      },
      text: [
        `refund ${refund.id} (workflow ${refundWorkflowId(refund.id)}), ${refund.mode}, merchant ${refund.merchantId}, session ${refund.sessionId}`,
        `status       ${refund.status}${refund.statusReason ? `: ${refund.statusReason}` : ''}`,
        `source       ${refund.source}${refund.deposit ? ` (deposit ${refund.deposit.txHash}:${refund.deposit.logIndex} on ${refund.deposit.chain})` : ''}`,
        `amount       ${usdText(refund.amountUsdMicros)} USD (${refund.amountBaseUnits} base units of ${refund.token} on ${refund.chain}), fee ${refund.feePolicy}`,
        `destination  ${destinationText(refund)}`,
        `times        created ${when(refund.createdAt)}, claimed ${when(refund.claimedAt)}, completed ${when(refund.completedAt)}, expires ${when(refund.expiresAt)}`,
        ...(refund.reason ? [`reason       ${refund.reason}`] : []),
        payout
          ? `payment      ${payout.status}, ${decimalText(payout.amountBaseUnits, 6)} ${payout.token} on ${payout.chain} to ${payout.destinationAddress}, fee ${decimalText(payout.feeBaseUnits, 6)}, intent ${payout.intentId}, ${payout.signature ?? 'unsigned'}${payout.failureReason ? `: ${payout.failureReason}` : ''}`
          : 'payment      none written by the signer',
        ...(entries.length === 0 ? ['ledger       none'] : ['ledger', ...ledgerEntriesText(entries), ...groupsText(entries)]),
      ],
    };
  },
});

const stuck = defineCommand({
  name: 'stuck',
  summary: 'refunds claimed over an hour ago (--older-than) whose payment has not landed, oldest first',
  options: {
    'older-than': {
      value: '<minutes>',
      description: `how long after its claim a refund not paid counts as stuck (default ${REFUND_STUCK_AFTER_MINUTES})`,
    },
    limit: { value: '<n>', description: 'at most this many (1 to 1000, default 50)' },
  },
  readOnly: true,
  schema: z.object({
    'older-than': integerOption(0, 30 * 24 * 60).default(REFUND_STUCK_AFTER_MINUTES),
    limit: integerOption(1, 1000).default(50),
  }),
  async run(context, input) {
    const minutes = input['older-than'];
    const refunds = await stuckRefunds(context.sql(), { olderThanMinutes: minutes, limit: input.limit });
    return {
      json: { older_than_minutes: minutes, refunds: refunds.map(refundJson) },
      text:
        refunds.length === 0
          ? [`no refund claimed ${minutes} minutes ago or more is waiting for its payment`]
          : table(
              ['REFUND', 'MODE', 'MERCHANT', 'STATUS', 'USD', 'CLAIMED', 'AGE', 'PAYMENT', 'SIGNATURE'],
              refunds.map((r) => [
                r.id,
                r.mode,
                r.merchantId,
                r.status,
                usdText(r.amountUsdMicros),
                when(r.claimedAt),
                ageText(ageSeconds(r.claimedAt ?? r.updatedAt)),
                r.payout ? `${r.payout.status}${r.payout.failureReason ? `: ${r.payout.failureReason}` : ''}` : 'none',
                r.payout?.signature ?? '-',
              ]),
            ),
    };
  },
});

const cancel = defineCommand({
  name: 'cancel',
  summary: 'cancel a refund the signer has not started paying, and tell its workflow',
  positional: { name: 'refund', value: '<ref_…>', description: 'the refund to cancel (required)' },
  options: { reason: { value: '<text>', description: 'why, kept as its status reason (1 to 500 characters)' } },
  schema: z.object({ refund: RefundIdOption, reason: z.string().trim().min(1).max(500).optional() }),
  async run(context, input) {
    const reason = input.reason ?? 'cancelled by the operator';
    const outcome = await context.sql().begin((tx) => cancelRefund(tx, input.refund, reason, 'operator'));
    if (!outcome.ok)
      throw new CliError(outcome.notFound ? `no refund ${input.refund}` : `refund ${input.refund} was not cancelled: ${outcome.refusal}`);
    const warnings: string[] = [];
    if (outcome.changed) {
      const temporal = await context.temporal();
      try {
        await temporal.workflow.getHandle(refundWorkflowId(input.refund)).signal(REFUND_SIGNALS.cancelled);
      } catch (error) {
        // A refund whose workflow never started (or already ended) has nothing waiting to be told.
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        warnings.push(`workflow ${refundWorkflowId(input.refund)} is not running: the row is cancelled, nothing else was told`);
      }
    }
    return {
      json: {
        refund_id: input.refund,
        previous_status: outcome.previous,
        status: 'cancelled',
        already_cancelled: !outcome.changed,
        reason: outcome.changed ? reason : null,
      },
      text: [
        outcome.changed
          ? `refund ${input.refund} cancelled (was ${outcome.previous}): ${reason}`
          : `refund ${input.refund} was already cancelled; nothing changed`,
      ],
      targets: outcome.changed ? [input.refund] : [],
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  },
});

const reissue = defineCommand({
  name: 'reissue',
  summary: 'give an automatic refund that ended unpaid (failed, expired, cancelled) back to the customer as a new refund',
  positional: { name: 'refund', value: '<ref_…>', description: 'the refund that ended unpaid (required)' },
  options: {},
  schema: z.object({ refund: RefundIdOption }),
  async run(context, input) {
    const expiresAt = refundExpiresAt(new Date(), context.config.refundClaimDays);
    const outcome = await context.sql().begin((tx) => reissueRefund(tx, input.refund, expiresAt));
    if (!outcome.ok) throw new CliError(outcome.refusal);
    const { refund } = outcome;
    await refundStarter(await context.temporal(), context.config.temporal.taskQueue)(refund);
    return {
      json: {
        refund_id: input.refund,
        reissued_as: refund.id,
        already_reissued: !outcome.created,
        status: refund.status,
        amount_base_units: refund.amountBaseUnits.toString(),
        token: refund.token,
        chain: refund.chain,
        expires_at: refund.expiresAt.toISOString(),
      },
      text: [
        outcome.created
          ? `refund ${input.refund} reissued as ${refund.id}: ${refund.amountBaseUnits} ${refund.token} base units on ${refund.chain}, waiting for the customer's claim until ${when(refund.expiresAt)}`
          : `refund ${input.refund} was already reissued as ${refund.id} (${refund.status}); nothing changed`,
        ...(outcome.created ? [`the merchant reads its claim link with GET /checkout/refunds/${refund.id}`] : []),
      ],
      targets: outcome.created ? [input.refund, refund.id] : [],
    };
  },
});

/**
 * What the reconciliation sweep does every RECONCILIATION_INTERVAL_MINUTES, now: opens the refund of each confirmed
 * deposit kept for a refund that has none (activities/refunds/missingDepositRefunds.ts), as the session's workflow
 * would have, and starts its workflow; safe beside running workers, and again.
 */
const openMissing = defineCommand({
  name: 'open-missing',
  summary: 'open the refunds of deposits kept for a refund that have none (late after the workflow ended), and start them',
  options: {
    mode: { value: '<test|live>', description: 'only this mode (default both)' },
    'dry-run': { description: 'list the deposits, change nothing' },
  },
  schema: z.object({ mode: ModeOption.optional(), 'dry-run': z.boolean().default(false) }),
  async run(context, input) {
    const sql = context.sql();
    const modes: readonly Mode[] = input.mode ? [input.mode] : ModeOption.options;
    if (input['dry-run']) {
      const deposits = (
        await Promise.all(
          modes.map(async (mode) => (await depositsWithoutRefund(sql, mode, MISSING_REFUND_BATCH)).map((d) => ({ mode, ...d }))),
        )
      ).flat();
      return {
        json: {
          dry_run: true,
          deposits: deposits.map((d) => ({
            mode: d.mode,
            session_id: d.sessionId,
            chain: d.chain,
            tx_hash: d.txHash,
            log_index: d.logIndex,
            token: d.token,
            amount_base_units: d.amountBaseUnits.toString(),
          })),
        },
        text: [
          deposits.length === 0
            ? 'every deposit kept for a refund has one'
            : `${deposits.length} deposit${deposits.length === 1 ? '' : 's'} kept for a refund without one (dry run: nothing changed)`,
          ...(deposits.length > 0
            ? table(
                ['MODE', 'SESSION', 'DEPOSIT', 'AMOUNT'],
                deposits.map((d) => [
                  d.mode,
                  d.sessionId,
                  `${d.txHash}:${d.logIndex} on ${d.chain}`,
                  `${d.amountBaseUnits} ${d.token} base units`,
                ]),
              )
            : []),
        ],
      };
    }
    const startRefund = refundStarter(await context.temporal(), context.config.temporal.taskQueue);
    const opened: Refund[] = [];
    for (const mode of modes)
      opened.push(...(await openMissingDepositRefunds({ sql, refundClaimDays: context.config.refundClaimDays, startRefund }, mode)));
    return {
      json: {
        dry_run: false,
        refunds: opened.map((r) => ({
          refund_id: r.id,
          mode: r.mode,
          session_id: r.sessionId,
          source: r.source,
          deposit: r.deposit && { chain: r.deposit.chain, tx_hash: r.deposit.txHash, log_index: r.deposit.logIndex },
          amount_usd: usdText(r.amountUsdMicros),
          workflow_id: refundWorkflowId(r.id),
        })),
      },
      text: [
        opened.length === 0
          ? 'no refund was missing'
          : `${opened.length} refund${opened.length === 1 ? '' : 's'} opened, each workflow started`,
        ...(opened.length > 0
          ? table(
              ['REFUND', 'MODE', 'SESSION', 'SOURCE', 'DEPOSIT', 'USD'],
              opened.map((r) => [
                r.id,
                r.mode,
                r.sessionId,
                r.source,
                r.deposit ? `${r.deposit.txHash}:${r.deposit.logIndex} on ${r.deposit.chain}` : '-',
                usdText(r.amountUsdMicros),
              ]),
            )
          : []),
        ...(opened.length >= MISSING_REFUND_BATCH ? [`at most ${MISSING_REFUND_BATCH} per mode at a time: run it again for the rest`] : []),
      ],
      targets: opened.map((r) => r.id),
    };
  },
});

export const refundCommands: CommandGroup = {
  name: 'refund',
  summary:
    'refunds to customers: list, show, the stuck ones, cancelling one not yet paid, reissuing one that ended unpaid, opening the missing ones',
  commands: [list, show, stuck, cancel, reissue, openMissing],
};
