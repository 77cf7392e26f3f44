// What every chain's held-inventory withdrawer shares (evmInventoryWithdrawal.ts, tronInventoryWithdrawal.ts): the
// answer of a pass, the row and token a pass works on, refused when they are not this withdrawer's, and what a final
// chain write leaves in the row and the ledger.
import { ApplicationFailure } from '@temporalio/activity';
import type { Queryable, Sql } from '../../db/client';
import {
  findInventoryWithdrawal,
  setWithdrawalFailed,
  setWithdrawalSent,
  type InventoryWithdrawal,
} from '../../db/repositories/inventoryWithdrawals';
import { postLedger } from '../../db/repositories/ledger';
import type { TokenDeployment } from '../../domain/chains/chainRegistry';
import type { Chain } from '../../domain/chains/chains';
import { inventoryWithdrawn } from '../../domain/ledger/inventoryPostings';
import type { LedgerPosting } from '../../domain/ledger/ledger';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import type { Mode } from '../../domain/wire/session';

export type WithdrawalAnswer =
  { status: 'pending'; deferred?: string } | { status: 'sent'; txHash: string } | { status: 'failed'; reason: string };

const refuse = (message: string) => ApplicationFailure.nonRetryable(message, WorkflowFailure.TransferRefused);

export async function loadWithdrawal(
  sql: Queryable,
  scope: { mode: Mode; chain: Chain; tokens: readonly TokenDeployment[] },
  id: string,
): Promise<{ withdrawal: InventoryWithdrawal; token: TokenDeployment }> {
  const withdrawal = await findInventoryWithdrawal(sql, id);
  if (!withdrawal || withdrawal.mode !== scope.mode || withdrawal.chain !== scope.chain)
    throw refuse(`no ${scope.mode} inventory withdrawal ${id} on ${scope.chain}`);
  const token = scope.tokens.find((t) => t.symbol === withdrawal.token);
  if (!token) throw refuse(`${withdrawal.token} has no contract on ${scope.chain} for ${scope.mode} mode`);
  return { withdrawal, token };
}

/**
 * Records a withdrawal's final chain write in one transaction: sent, with the tokens posted out of the collector, or
 * failed on chain with nothing moved; either way the relayer's gas is posted.
 */
export async function recordWithdrawalOutcome(
  sql: Sql,
  withdrawal: InventoryWithdrawal,
  outcome: { landed: boolean; txId: string; failure: string; gas: LedgerPosting | undefined },
): Promise<WithdrawalAnswer> {
  await sql.begin(async (tx) => {
    if (!outcome.landed) await setWithdrawalFailed(tx, withdrawal.id, outcome.failure, outcome.txId);
    else {
      await setWithdrawalSent(tx, withdrawal.id, outcome.txId);
      await postLedger(tx, inventoryWithdrawn({ withdrawalId: withdrawal.id, mode: withdrawal.mode, pair: withdrawal }, withdrawal.amount));
    }
    if (outcome.gas) await postLedger(tx, outcome.gas);
  });
  return outcome.landed ? { status: 'sent', txHash: outcome.txId } : { status: 'failed', reason: outcome.failure };
}
