// Only the indexer writes a deposit's chain facts (stage, amount, addresses, block, depth); a signal is a
// wake-up, never proof. Before the workflow credits a confirmation it reads them here: a confirmation the
// indexer never recorded for this session and network credits nothing and raises an alert.
import { log, metricMeter } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import type { TokenSymbol } from '../../domain/chains/chains';
import type { DepositRef } from '../../domain/session/deposit';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';

/** The indexer's record of a confirmed deposit: what the workflow credits, whatever a signal claimed. */
export interface ConfirmedDepositFacts {
  token: TokenSymbol;
  amount: string;
  fromAddress: string;
  toAddress: string;
  blockNumber: string;
  blockHash: string;
  confirmations: number;
}

export function createConfirmedDepositFacts(deps: { sql: Sql }) {
  return async function confirmedDepositFacts(sessionId: string, mode: Mode, ref: DepositRef): Promise<ConfirmedDepositFacts | null> {
    const [row] = await deps.sql<ConfirmedDepositFacts[]>`
      select token, amount_base_units::text as amount, from_address as "fromAddress", to_address as "toAddress",
             block_number::text as "blockNumber", block_hash as "blockHash", confirmations
      from deposits
      where chain = ${ref.chain} and tx_hash = ${ref.txHash} and log_index = ${ref.logIndex}
        and network = ${networkForMode(mode)} and session_id = ${sessionId} and stage = 'confirmed'`;
    if (row) return row;
    metricMeter
      .createCounter('checkout_unverified_deposit_confirmations', 'signals', 'Deposit confirmations no indexer record backs (possible forgery): never credited')
      .add(1, { chain: ref.chain });
    log.error('deposit confirmation not backed by the indexer; not credited', { sessionId, chain: ref.chain, txHash: ref.txHash, logIndex: ref.logIndex });
    return null;
  };
}
