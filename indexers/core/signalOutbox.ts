// Sends each deposit's pending signals: the deposits row says what is true on chain, its signalled_* columns
// what the session workflow has been told, and nextSignal() the one step that closes the gap. Steps are
// recorded after Temporal accepted them; a crash in between resends the step with the same request id, which
// Temporal drops, so every step reaches the workflow once.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Sql } from '../../db/client';
import { errorFields } from '../../observability/logger';
import type { DepositObservation, DepositRef } from '../../domain/session/deposit';
import type { ChainKey } from './cursor';
import { depositsWithPendingSignals, markLate, recordSignalled, type DepositRow, type SignalledState } from './depositStore';
import type { ChainMetrics } from './metrics';
import type { IndexerSignal, SignalSender } from './signalSender';

export interface SignalStep {
  /** undefined: nothing to tell the workflow, only the row's bookkeeping to update. */
  signal: IndexerSignal | undefined;
  after: SignalledState;
}

export function nextSignal(row: DepositRow): SignalStep | undefined {
  const ref: DepositRef = { chain: row.chain, txHash: row.txHash, logIndex: row.logIndex };
  const told = row.signalledStage;
  // The workflow knows a block that no longer holds this transfer: withdraw it first.
  if (told === 'detected' && (row.stage === 'reorged' || row.signalledBlockHash !== row.blockHash)) {
    return {
      signal: { kind: 'depositReorged', payload: ref },
      after: { stage: 'reorged', blockHash: row.signalledBlockHash, confirmations: 0 },
    };
  }
  if (row.stage === 'reorged') {
    return told === null ? { signal: undefined, after: { stage: 'reorged', blockHash: null, confirmations: 0 } } : undefined;
  }
  const observation: DepositObservation = {
    ...ref,
    token: row.token,
    amount: row.amount,
    toAddress: row.toAddress,
    fromAddress: row.fromAddress,
    blockNumber: row.blockNumber.toString(),
    blockHash: row.blockHash,
  };
  if (told === null || told === 'reorged') {
    // Detection itself says depth 1 (the deposit's own block); progress signals start at 2.
    return {
      signal: { kind: 'depositDetected', payload: observation },
      after: { stage: 'detected', blockHash: row.blockHash, confirmations: 1 },
    };
  }
  if (told !== 'detected') return undefined;
  if (row.stage === 'confirmed') {
    // The whole observation again, so the workflow can credit the deposit even if it never saw the detection.
    return {
      signal: { kind: 'depositConfirmed', payload: { ...observation, confirmations: row.confirmations } },
      after: { stage: 'confirmed', blockHash: row.blockHash, confirmations: row.confirmations },
    };
  }
  if (row.confirmations > row.signalledConfirmations) {
    return {
      signal: { kind: 'confirmations', payload: { ...ref, confirmations: row.confirmations } },
      after: { stage: 'detected', blockHash: row.blockHash, confirmations: row.confirmations },
    };
  }
  return undefined;
}

/** Deterministic per deposit and step, shaped as a UUID as Temporal's own request ids are. */
export function signalRequestId(row: DepositRow): string {
  const hex = createHash('sha256').update(`${row.chain}|${row.network}|${row.txHash}|${row.logIndex}|${row.signalSeq}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export interface FlushDeps {
  sql: Sql;
  key: ChainKey;
  sender: SignalSender;
  metrics: ChainMetrics;
  logger: Logger;
}

const BATCH = 200;
/** A row needs at most two steps per pass (withdraw, then detect again); more rounds would mean a bug looping. */
const MAX_ROUNDS = 4;

/** Returns false when Temporal could not be reached: the rest waits for the next tick. */
export async function flushSignals({ sql, key, sender, metrics, logger }: FlushDeps): Promise<boolean> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const rows = await depositsWithPendingSignals(sql, key, BATCH);
    let progressed = false;
    for (const row of rows) {
      const step = nextSignal(row);
      if (!step) continue;
      if (step.signal) {
        try {
          const outcome = await sender.send(row.sessionId, step.signal, signalRequestId(row));
          if (outcome === 'delivered') metrics.signalsSent += 1;
          else {
            // Session workflows end when their session closes; the address stays watched for late deposits.
            metrics.signalsUndeliverable += 1;
            await markLate(sql, row);
            logger.info(
              { sessionId: row.sessionId, txHash: row.txHash, logIndex: row.logIndex, signal: step.signal.kind },
              'session closed: deposit recorded as late, for refund',
            );
          }
        } catch (error) {
          metrics.signalErrors += 1;
          logger.warn(
            { err: errorFields(error), sessionId: row.sessionId, signal: step.signal.kind },
            'signal not sent; retrying next tick',
          );
          return false;
        }
      }
      await recordSignalled(sql, row, step.after);
      progressed = true;
    }
    if (!progressed) return true;
  }
  return true;
}
