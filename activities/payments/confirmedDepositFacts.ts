// Only the indexer writes a deposit's chain facts (stage, amount, addresses, block, depth); a signal is a
// wake-up, never proof. Before the workflow credits a confirmation it reads them here: a confirmation the
// indexer never recorded for this session and network credits nothing and raises an alert.
import { log, metricMeter } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import { findConfirmedDeposit, type ConfirmedDepositFacts } from '../../db/repositories/deposits';
import type { DepositRef } from '../../domain/session/deposit';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';

export function createConfirmedDepositFacts(deps: { sql: Sql }) {
  return async function confirmedDepositFacts(sessionId: string, mode: Mode, ref: DepositRef): Promise<ConfirmedDepositFacts | null> {
    const row = await findConfirmedDeposit(deps.sql, sessionId, networkForMode(mode), ref);
    if (row) return row;
    metricMeter
      .createCounter(
        'checkout_unverified_deposit_confirmations',
        'signals',
        'Deposit confirmations no indexer record backs (possible forgery): never credited',
      )
      .add(1, { chain: ref.chain });
    log.error('deposit confirmation not backed by the indexer; not credited', {
      sessionId,
      chain: ref.chain,
      txHash: ref.txHash,
      logIndex: ref.logIndex,
    });
    return null;
  };
}
