// The check before each pass of an EVM or Tron chain intent's writer (signing, or signing a replacement): the stored
// call against the one its sweep or transfer row implies (domain/chainWrites/intentCall.ts, tronIntentCall.ts). A difference signs nothing:
// the pass is refused, logged and counted, and the intent waits as it is for an operator.
import { ApplicationFailure, log, metricMeter } from '@temporalio/activity';
import type { Queryable } from '../../db/client';
import { findChainIntent, type ChainIntent } from '../../db/repositories/chainIntents';
import { WorkflowFailure } from '../../domain/session/workflowFailures';

/** What the intent is, for the log and the metric. */
export interface IntentScope {
  kind: 'forwarder-sweep' | 'hd-sweep' | 'hd-top-up' | 'cctp-burn' | 'inventory-rebalance' | 'usdt-swap';
  chain: string;
  mode: string;
}

/**
 * Refuses the intent's next pass when `difference` finds its stored call is not what its row implies. An intent that
 * cannot be signed again (finalized or failed) is left to its writer, which only records it.
 */
export async function refuseAlteredCall(
  sql: Queryable,
  id: string,
  scope: IntentScope,
  difference: (intent: ChainIntent) => string | undefined,
): Promise<void> {
  const intent = await findChainIntent(sql, id);
  if (!intent || intent.status === 'finalized' || intent.status === 'failed') return;
  const found = difference(intent);
  if (found === undefined) return;
  metricMeter
    .createCounter(
      'checkout_chain_intents_refused_call',
      'passes',
      'Chain intents not signed: the stored call is not what its sweep or transfer row implies (possible tampering)',
    )
    .add(1, { kind: scope.kind, chain: scope.chain, mode: scope.mode });
  log.error('chain intent not signed: its stored call is not what its row implies', { intentId: id, ...scope, difference: found });
  throw ApplicationFailure.nonRetryable(`chain intent ${id} (${scope.kind}): ${found}; not signed`, WorkflowFailure.ChainIntentRefused);
}
