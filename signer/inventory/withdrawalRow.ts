// What every chain's held-inventory withdrawer shares (evmInventoryWithdrawal.ts, tronInventoryWithdrawal.ts): the
// answer of a pass, and the row and token a pass works on, refused when they are not this withdrawer's.
import { ApplicationFailure } from '@temporalio/activity';
import type { Queryable } from '../../db/client';
import { findInventoryWithdrawal, type InventoryWithdrawal } from '../../db/repositories/inventoryWithdrawals';
import type { TokenDeployment } from '../../domain/chains/chainRegistry';
import type { Chain } from '../../domain/chains/chains';
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
