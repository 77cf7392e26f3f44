// One held-inventory withdrawal (id inventory_withdrawal_<id>), started by `checkout-admin inventory withdraw`
// (docs/settlement.md#held-inventory): pass after pass of the signer's advanceInventoryWithdrawal until the
// collector's rebalance is final or failed. Each pass is resumable: the row and its chain intent decide it.
import { sleep } from '@temporalio/workflow';
import type { Chain } from '../domain/chains/chains';
import type { Mode } from '../domain/wire/session';
import { transfers } from './sessionActivities';

export interface InventoryWithdrawalInput {
  mode: Mode;
  chain: Chain;
  withdrawalId: string;
}

export type InventoryWithdrawalResult = { kind: 'sent'; txHash: string } | { kind: 'failed'; reason: string } | { kind: 'no_route' };

/** Blocks on the chain: the rebalance waits for its confirmations. */
const POLL = '5 seconds';

export async function inventoryWithdrawal(input: InventoryWithdrawalInput): Promise<InventoryWithdrawalResult> {
  for (;;) {
    const answer = await transfers(input.mode).advanceInventoryWithdrawal(input);
    if (answer.status === 'no_route') return { kind: 'no_route' };
    if (answer.status === 'sent') return { kind: 'sent', txHash: answer.txHash };
    if (answer.status === 'failed') return { kind: 'failed', reason: answer.reason };
    await sleep(POLL);
  }
}
