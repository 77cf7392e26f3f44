// USDC an operator's rebalancing brought back to the treasury, recorded from the Solana transaction that paid it
// (docs/settlement.md#held-inventory): the treasury's USDC must have risen by exactly the amount the operator names,
// in a transaction that is neither the service's own nor already recorded as funding. Then everything in
// rebalancing:<chain> closes against it (domain/ledger/inventoryPostings.ts inventoryRebalanced).
import type { Queryable } from '../../db/client';
import { findChainIntentIdBySignature } from '../../db/repositories/chainIntents';
import { ledgerGroupExists, postLedger } from '../../db/repositories/ledger';
import { ledgerBalances } from '../../db/repositories/reconciliation';
import type { Chain } from '../../domain/chains/chains';
import { INVENTORY_ACCOUNT, inventoryRebalanced, inventoryRebalancedGroupId } from '../../domain/ledger/inventoryPostings';
import { ASSET, type Asset, type LedgerPosting } from '../../domain/ledger/ledger';
import { treasuryChangeOf } from './treasuryFunding';
import type { TreasuryView } from './ledgerReconciliation';

/** A refusal to record: the ledger is left as it was. */
export class RebalanceRefused extends Error {
  override name = 'RebalanceRefused';
}

const SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;

export async function recordInventoryRebalanced(
  view: TreasuryView,
  sql: Queryable,
  request: { chain: Chain; usdc: bigint; signature: string },
): Promise<{ posting: LedgerPosting } | { alreadyRecorded: string }> {
  const { chain, signature } = request;
  if (!SIGNATURE.test(signature)) throw new RebalanceRefused(`"${signature}" is not a Solana transaction signature (base58)`);
  const groupId = inventoryRebalancedGroupId(chain, signature);
  if (await ledgerGroupExists(sql, groupId)) return { alreadyRecorded: groupId };
  const intent = await findChainIntentIdBySignature(sql, signature);
  if (intent) throw new RebalanceRefused(`transaction ${signature} is the service's own (${intent}): it brought no rebalanced USDC`);
  if (await ledgerGroupExists(sql, `treasury-funding:${signature}`))
    throw new RebalanceRefused(`transaction ${signature} is already recorded as treasury funding (treasury-funding:${signature})`);
  const rebalancing = INVENTORY_ACCOUNT.rebalancing(chain);
  const inFlight = (await ledgerBalances(sql, view.mode, [{ account: rebalancing, asset: ASSET.usdcSolana }]))
    .filter((b) => b.account === rebalancing && b.amount !== 0n)
    .map((b) => ({ asset: b.asset as Asset, amount: b.amount }));
  if (inFlight.length === 0) throw new RebalanceRefused(`nothing is in flight in ${rebalancing} (${view.mode}): withdraw first`);
  const received = (await treasuryChangeOf(view, signature))[ASSET.usdcSolana] ?? 0n;
  if (received !== request.usdc)
    throw new RebalanceRefused(
      `transaction ${signature} changed the ${view.mode} treasury ${view.treasury}'s USDC by ${received} base units, not the ${request.usdc} named`,
    );
  const posting = inventoryRebalanced(view.mode, chain, signature, { inFlight, receivedUsdc: received });
  await postLedger(sql, posting);
  return { posting };
}
