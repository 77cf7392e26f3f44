// `transfer list | show`: CCTP V2 transfers from the EVM collectors to the Solana treasury
// (docs/settlement.md#cctp-transfers). list shows them newest first, or with --stuck those in flight whose stage
// has not moved for the given minutes, by stage and age; show is one transfer's stages, intents, hashes, nonce,
// amounts and ledger entries.
import { findChainIntent, type ChainIntent } from '../../db/repositories/chainIntents';
import { ledgerEntriesFor } from '../../db/repositories/payoutListing';
import { findTransfer, listTransfers, transfersInFlight, type Transfer } from '../../db/repositories/transfers';
import { z } from '../../domain/wire/validationMessages';
import { CliError, defineCommand, integerOption, ModeOption, table, when, type CommandGroup } from './cli';
import { ageText, usdcText } from './settlement';

/** A Standard attestation takes 15-20 minutes: a stage unchanged for an hour is worth a look. */
const DEFAULT_STUCK_MINUTES = 60;

const ageSeconds = (since: Date) => Math.max(0, Math.round((Date.now() - since.getTime()) / 1000));

const transferJson = (t: Transfer) => ({
  id: t.id,
  workflow_id: `transfer_${t.id}`,
  mode: t.mode,
  source_chain: t.sourceChain,
  stage: t.stage,
  amount_usdc: usdcText(t.amount),
  amount_base_units: t.amount.toString(),
  max_fee_base_units: t.maxFee.toString(),
  speed: t.speed,
  burn_intent_id: t.burnIntentId,
  burn_tx_hash: t.burnTxHash,
  nonce: t.nonce,
  receive_intent_id: t.receiveIntentId,
  received_base_units: t.receivedAmount?.toString() ?? null,
  failure: t.failure,
  created_at: t.createdAt.toISOString(),
  stage_since: t.updatedAt.toISOString(),
  burned_at: t.burnedAt?.toISOString() ?? null,
  attested_at: t.attestedAt?.toISOString() ?? null,
  received_at: t.receivedAt?.toISOString() ?? null,
});

const list = defineCommand({
  name: 'list',
  summary: 'list CCTP transfers newest first; --stuck: those in flight whose stage has not moved for a while, oldest first',
  options: {
    mode: { value: '<test|live>', description: 'only this mode' },
    stuck: {
      description: `only transfers in flight whose stage has not moved for --older-than minutes (default ${DEFAULT_STUCK_MINUTES})`,
    },
    'older-than': {
      value: '<minutes>',
      description: 'with --stuck: the stage age that counts as stuck (0 lists every transfer in flight)',
    },
    limit: { value: '<n>', description: 'at most this many (1 to 1000, default 50)' },
  },
  readOnly: true,
  schema: z.object({
    mode: ModeOption.optional(),
    stuck: z.boolean().optional(),
    'older-than': integerOption(0, 7 * 24 * 60).optional(),
    limit: integerOption(1, 1000).optional(),
  }),
  async run(context, input) {
    const sql = context.sql();
    const limit = input.limit ?? 50;
    const minutes = input['older-than'] ?? DEFAULT_STUCK_MINUTES;
    const transfers = input.stuck
      ? (await transfersInFlight(sql, { olderThanMs: minutes * 60_000 }))
          .filter((t) => !input.mode || t.mode === input.mode)
          .slice(0, limit)
      : await listTransfers(sql, { ...(input.mode ? { mode: input.mode } : {}), limit });
    return {
      json: { transfers: transfers.map(transferJson) },
      text:
        transfers.length === 0
          ? [input.stuck ? `no transfer in flight has kept its stage for ${minutes} minutes` : 'no transfers']
          : table(
              ['TRANSFER', 'MODE', 'CHAIN', 'STAGE', 'STAGE AGE', 'USDC', 'SPEED', 'CREATED', 'BURN TX'],
              transfers.map((t) => [
                t.id,
                t.mode,
                t.sourceChain,
                t.stage,
                ageText(ageSeconds(t.updatedAt)),
                usdcText(t.amount),
                t.speed,
                when(t.createdAt),
                t.burnTxHash ?? '-',
              ]),
            ),
    };
  },
});

const intentText = (label: string, intent: ChainIntent | undefined, id: string | null) =>
  intent
    ? `${label} ${intent.id} ${intent.status}, ${intent.signature ?? 'unsigned'}${intent.supersededSignatures.length > 0 ? ` (replaced ${intent.supersededSignatures.join(', ')})` : ''}`
    : `${label} ${id ?? 'none'}`;

const show = defineCommand({
  name: 'show',
  summary: "one CCTP transfer's stages, chain intents, hashes, nonce, amounts and ledger entries",
  positional: { name: 'transfer', value: '<tr_…>', description: 'the transfer (required)' },
  options: {},
  readOnly: true,
  schema: z.object({ transfer: z.string().regex(/^tr_[0-9a-f]{26}$/, 'Must be a transfer id (tr_…)') }),
  async run(context, input) {
    const sql = context.sql();
    const transfer = await findTransfer(sql, input.transfer);
    if (!transfer) throw new CliError(`no transfer ${input.transfer}`);
    const [burn, receive, ledger, gas] = await Promise.all([
      findChainIntent(sql, transfer.burnIntentId),
      transfer.receiveIntentId ? findChainIntent(sql, transfer.receiveIntentId) : Promise.resolve(undefined),
      ledgerEntriesFor(sql, transfer.id),
      ledgerEntriesFor(sql, transfer.burnIntentId),
    ]);
    const entries = [...ledger, ...gas];
    const json = {
      ...transferJson(transfer),
      burn_intent: burn
        ? {
            id: burn.id,
            status: burn.status,
            hash: burn.signature,
            nonce: burn.nonce?.toString() ?? null,
            superseded: burn.supersededSignatures,
          }
        : null,
      receive_intent: receive
        ? { id: receive.id, status: receive.status, signature: receive.signature, superseded: receive.supersededSignatures }
        : null,
      ledger_entries: entries.map((e) => ({
        group_id: e.groupId,
        account: e.account,
        asset: e.asset,
        amount: e.amount,
        created_at: e.createdAt.toISOString(),
      })),
    };
    const text = [
      `transfer ${transfer.id} (workflow transfer_${transfer.id}), ${transfer.mode}, ${transfer.sourceChain} → solana`,
      `stage     ${transfer.stage} since ${when(transfer.updatedAt)}${transfer.failure ? `: ${transfer.failure}` : ''}`,
      `amount    ${usdcText(transfer.amount)} USDC, max fee ${usdcText(transfer.maxFee)}, ${transfer.speed}; received ${transfer.receivedAmount === null ? '-' : usdcText(transfer.receivedAmount)}`,
      `times     created ${when(transfer.createdAt)}, burned ${when(transfer.burnedAt)}, attested ${when(transfer.attestedAt)}, received ${when(transfer.receivedAt)}`,
      intentText('burn     ', burn, transfer.burnIntentId),
      `nonce     ${transfer.nonce ?? '-'}`,
      intentText('receive  ', receive, transfer.receiveIntentId),
      ...(entries.length === 0
        ? ['ledger    none']
        : [
            'ledger',
            ...table(
              ['GROUP', 'ACCOUNT', 'ASSET', 'AMOUNT'],
              entries.map((e) => [e.groupId, e.account, e.asset, e.amount]),
            ).map((l) => `  ${l}`),
          ]),
    ];
    return { json, text };
  },
});

export const transferCommands: CommandGroup = {
  name: 'transfer',
  summary: 'CCTP transfers from the EVM collectors to the Solana treasury',
  commands: [list, show],
};
