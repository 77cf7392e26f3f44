// `inventory status`: per mode and held pair, what the ledger and the last reconciliation say is held, its exposure
// against INVENTORY_CAPS, what is in flight to the rebalancing address, and any withdrawal open.
// `inventory withdraw`: writes an inventory_withdrawals row and starts its workflow, which has the signer call the
// collector's rebalance to INVENTORY_REBALANCE_ADDRESS_<CHAIN>_<MODE> (docs/settlement.md#held-inventory).
// `inventory record-rebalanced`: records the USDC a rebalancing brought back to the treasury, read from Solana.
import { ulid } from 'ulid';
import { RebalanceRefused, recordInventoryRebalanced } from '../../activities/settlement/inventoryRebalance';
import { rebalanceAddressVariable } from '../../config/inventory';
import { heldInventoryBalances } from '../../db/repositories/heldInventory';
import {
  insertInventoryWithdrawal,
  listInventoryWithdrawals,
  openInventoryWithdrawal,
  type InventoryWithdrawal,
} from '../../db/repositories/inventoryWithdrawals';
import { lastReconciliationRuns } from '../../db/repositories/reconciliation';
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import {
  HELD_INVENTORY_CHAINS,
  HELD_INVENTORY_PAIRS,
  inventoryCapFor,
  isAtCap,
  pairText,
  type HeldInventoryChain,
  type InventoryPair,
} from '../../domain/inventory/inventoryCaps';
import { inventoryExposure } from '../../domain/inventory/inventoryExposure';
import { ACCOUNT, assetDecimals, tokenAsset } from '../../domain/ledger/ledger';
import type { Mode } from '../../domain/wire/session';
import { z } from '../../domain/wire/validationMessages';
import { inventoryWithdrawalWorkflowId } from '../../domain/inventory/inventoryWithdrawalWorkflowId';
import type { InventoryWithdrawalInput } from '../../workflows/inventoryWithdrawal';
import { CliError, defineCommand, ModeOption, table, type AdminContext, type CommandGroup } from './cli';
import { assetText, configuredTreasuryViews } from './ledger';

const MODES: readonly Mode[] = ['test', 'live'];

const PairOption = z
  .string()
  .refine(
    (text) => HELD_INVENTORY_PAIRS.some((pair) => pairText(pair) === text),
    `Must be a held pair: ${HELD_INVENTORY_PAIRS.map(pairText).join(', ')}`,
  )
  .transform((text): InventoryPair => {
    const [token, chain] = text.split(':') as [TokenSymbol, Chain];
    return { token, chain };
  });

const ChainOption = z.enum(HELD_INVENTORY_CHAINS);

/** A decimal amount in `decimals` places as base units, or undefined when it is not one. */
function baseUnitsOf(text: string, decimals: number): bigint | undefined {
  const match = new RegExp(`^(\\d{1,15})(?:\\.(\\d{1,${decimals}}))?$`).exec(text);
  if (!match) return undefined;
  return BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt((match[2] ?? '').padEnd(decimals, '0') || '0');
}

const withdrawalJson = (w: InventoryWithdrawal) => ({
  id: w.id,
  pair: `${w.token}:${w.chain}`,
  amount: assetText(tokenAsset(w.token, w.chain), w.amount),
  base_units: w.amount.toString(),
  to: w.toAddress,
  status: w.status,
  tx_hash: w.txHash,
  failure: w.failure,
  requested_by: w.requestedBy,
  created_at: w.createdAt.toISOString(),
});

async function statusOf(context: AdminContext, mode: Mode) {
  const sql = context.sql();
  const [balances, runs, withdrawals] = await Promise.all([
    heldInventoryBalances(sql, mode),
    lastReconciliationRuns(sql),
    listInventoryWithdrawals(sql, mode, 5),
  ]);
  const run = runs.find((r) => r.mode === mode);
  const pairs = balances.map((b) => {
    const exposure = inventoryExposure(b);
    const cap = inventoryCapFor(context.config.inventory.caps, b.pair);
    const onChain =
      b.pair.chain === 'solana'
        ? undefined
        : run?.balances.find((r) => r.account === ACCOUNT.collector(b.pair.chain) && r.asset === b.asset);
    const chain = b.pair.chain as HeldInventoryChain;
    return {
      pair: pairText(b.pair),
      asset: b.asset,
      held: assetText(b.asset, exposure.held),
      held_on_chain: onChain ? assetText(b.asset, onChain.observed) : null,
      at_deposit_addresses: assetText(b.asset, exposure.atDepositAddresses),
      in_flight: assetText(b.asset, exposure.inFlight),
      exposure: assetText(b.asset, exposure.exposure),
      cap_usd: cap === undefined ? null : cap.toString(),
      at_cap: isAtCap(exposure.exposure, cap, assetDecimals(b.asset)),
      rebalance_address: context.config.inventory.rebalanceAddresses[mode][chain] ?? null,
    };
  });
  return { mode, reconciled_at: run?.ranAt.toISOString() ?? null, pairs, withdrawals: withdrawals.map(withdrawalJson) };
}

const status = defineCommand({
  name: 'status',
  summary:
    'per held pair: held in the collector (ledger, and on chain at the last reconciliation), exposure and its cap, in flight to the rebalancing address, recent withdrawals',
  options: { mode: { value: '<test|live>', description: 'one mode (default both)' } },
  readOnly: true,
  schema: z.object({ mode: ModeOption.optional() }),
  async run(context, input) {
    const modes = await Promise.all((input.mode ? [input.mode] : MODES).map((mode) => statusOf(context, mode)));
    return {
      json: { modes },
      text: modes.flatMap((m) => [
        `${m.mode}: on chain as of ${m.reconciled_at ?? 'no reconciliation yet (checkout-admin ledger reconcile)'}`,
        ...table(
          ['PAIR', 'HELD', 'ON CHAIN', 'AT ADDRESSES', 'IN FLIGHT', 'EXPOSURE', 'CAP USD', 'REBALANCE TO'],
          m.pairs.map((p) => [
            p.at_cap ? `${p.pair} (at cap)` : p.pair,
            p.held,
            p.held_on_chain ?? '-',
            p.at_deposit_addresses,
            p.in_flight,
            p.exposure,
            p.cap_usd ?? 'none',
            p.rebalance_address ?? '-',
          ]),
        ).map((l) => `  ${l}`),
        ...m.withdrawals.map((w) => `  ${w.id} ${w.pair} ${w.amount} → ${w.to}: ${w.status}${w.failure ? ` (${w.failure})` : ''}`),
      ]),
    };
  },
});

const withdraw = defineCommand({
  name: 'withdraw',
  summary:
    "move a held pair's tokens from the chain's collector to INVENTORY_REBALANCE_ADDRESS_<CHAIN>_<MODE> through the signer (written ahead, posted once final)",
  positional: { name: 'pair', value: '<TOKEN:chain>', description: 'the held pair: USDC:bsc, USDT:bsc or USDT:tron (required)' },
  options: {
    amount: { value: '<amount|all>', description: 'tokens, e.g. 2500.5, or all the ledger holds in the collector (required)' },
    mode: { value: '<test|live>', description: 'whose collector (required)' },
  },
  schema: z.object({ pair: PairOption, amount: z.string().min(1), mode: ModeOption }),
  async run(context, input) {
    const { pair, mode } = input;
    const chain = pair.chain as HeldInventoryChain;
    if (chain === 'solana')
      throw new CliError(
        `${pairText(pair)}: withdrawals are built for the bsc and Tron collectors only so far; see docs/settlement.md#held-inventory`,
      );
    const to = context.config.inventory.rebalanceAddresses[mode][chain];
    if (!to) throw new CliError(`no rebalancing address: set ${rebalanceAddressVariable(chain, mode)}`);
    const sql = context.sql();
    const asset = tokenAsset(pair.token, chain);
    const held = (await heldInventoryBalances(sql, mode)).find((b) => pairText(b.pair) === pairText(pair))?.collector ?? 0n;
    const amount = input.amount === 'all' ? held : baseUnitsOf(input.amount, assetDecimals(asset));
    if (amount === undefined) throw new CliError(`--amount: "${input.amount}" is not an amount of ${pair.token} or all`, 2);
    if (amount <= 0n) throw new CliError(`the ledger holds nothing of ${pairText(pair)} in the ${mode} collector to withdraw`);
    if (amount > held)
      throw new CliError(
        `the ledger holds ${assetText(asset, held)} ${pair.token} in the ${mode} ${chain} collector, less than ${assetText(asset, amount)}`,
      );
    const open = await openInventoryWithdrawal(sql, mode, chain);
    if (open) throw new CliError(`withdrawal ${open.id} on ${chain} (${mode}) is still ${open.status}: one at a time per chain`);
    const withdrawal = await insertInventoryWithdrawal(sql, {
      id: `inw_${ulid()}`,
      mode,
      chain,
      token: pair.token,
      amount,
      toAddress: to,
      requestedBy: context.operator.name,
    });
    if (!withdrawal) throw new CliError(`another withdrawal on ${chain} (${mode}) was just requested: one at a time per chain`);
    const workflowId = inventoryWithdrawalWorkflowId(withdrawal.id);
    const args: InventoryWithdrawalInput = { mode, chain, withdrawalId: withdrawal.id };
    await (
      await context.temporal()
    ).workflow.start('inventoryWithdrawal', {
      workflowId,
      taskQueue: context.config.temporal.taskQueue,
      args: [args],
    });
    return {
      json: { ...withdrawalJson(withdrawal), workflow_id: workflowId },
      text: [
        `${withdrawal.id}: ${assetText(asset, amount)} ${pairText(pair)} from the ${mode} collector to ${to}; the signer sends it (${workflowId}); follow it with checkout-admin inventory status`,
      ],
      targets: [withdrawal.id],
    };
  },
});

const recordRebalanced = defineCommand({
  name: 'record-rebalanced',
  summary:
    'record the USDC a rebalancing brought back to the treasury, as the Solana transaction shows it: rebalancing:<chain> closes, the exchange difference is posted',
  positional: { name: 'chain', value: '<bsc|tron|solana>', description: 'whose rebalancing it closes (required)' },
  options: {
    usdc: { value: '<amount>', description: "the USDC the treasury received, e.g. 9985.2; must be the transaction's (required)" },
    signature: { value: '<signature>', description: 'the Solana transaction that paid the treasury (required)' },
    mode: { value: '<test|live>', description: 'whose treasury (required)' },
  },
  schema: z.object({ chain: ChainOption, usdc: z.string().min(1), signature: z.string().min(1), mode: ModeOption }),
  async run(context, input) {
    const usdc = baseUnitsOf(input.usdc, 6);
    if (usdc === undefined || usdc <= 0n) throw new CliError(`--usdc: "${input.usdc}" is not a positive USDC amount`, 2);
    const view = configuredTreasuryViews(context).find((v) => v.mode === input.mode);
    if (!view) throw new CliError(`no ${input.mode} treasury to read: set SOLANA_TREASURY_ADDRESS_${input.mode.toUpperCase()}`);
    try {
      const recorded = await recordInventoryRebalanced(view, context.sql(), { chain: input.chain, usdc, signature: input.signature });
      if ('alreadyRecorded' in recorded)
        return {
          json: { mode: input.mode, chain: input.chain, group_id: recorded.alreadyRecorded, already_recorded: true },
          text: [`${recorded.alreadyRecorded} was already recorded; nothing changed`],
          targets: [recorded.alreadyRecorded],
        };
      const { posting } = recorded;
      const entries = posting.entries.map((e) => ({ account: e.account, asset: e.asset, amount: assetText(e.asset, e.amount) }));
      return {
        json: { mode: input.mode, chain: input.chain, group_id: posting.groupId, already_recorded: false, entries },
        text: [`recorded ${posting.groupId}:`, ...entries.map((e) => `  ${e.account} ${e.amount} ${e.asset}`)],
        targets: [posting.groupId],
      };
    } catch (error) {
      if (error instanceof RebalanceRefused) throw new CliError(error.message);
      throw error;
    }
  },
});

export const inventoryCommands: CommandGroup = {
  name: 'inventory',
  summary: 'held inventory (bsc, Tron and Solana USDT): exposure, withdrawals to the rebalancing address, USDC back in the treasury',
  commands: [status, withdraw, recordRebalanced],
};
