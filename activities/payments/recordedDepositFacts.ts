// A depositDetected signal wakes the workflow; what it tracks is the indexer's row (the deposits table, which only the
// indexer's role writes: db/serviceRoles.ts). Before the workflow tracks a detected deposit it reads the row here, at
// whatever stage the indexer has it by now: a detection the indexer never recorded for this session and network is
// not tracked and raises an alert, and the amount, token and addresses tracked are the row's, whatever the signal said.
import { log, metricMeter } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import { findRecordedDeposit, type RecordedDepositFacts } from '../../db/repositories/deposits';
import type { DepositRef } from '../../domain/session/deposit';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';

export function createRecordedDepositFacts(deps: { sql: Sql }) {
  return async function recordedDepositFacts(sessionId: string, mode: Mode, ref: DepositRef): Promise<RecordedDepositFacts | null> {
    const row = await findRecordedDeposit(deps.sql, sessionId, networkForMode(mode), ref);
    if (row) return row;
    metricMeter
      .createCounter(
        'checkout_unverified_deposit_detections',
        'signals',
        'Deposit detections no indexer record backs (possible forgery): never tracked',
      )
      .add(1, { chain: ref.chain });
    log.error('deposit detection not backed by the indexer; not tracked', {
      sessionId,
      chain: ref.chain,
      txHash: ref.txHash,
      logIndex: ref.logIndex,
    });
    return null;
  };
}
