// deposits: each on-chain transfer once. The indexer writes the chain facts; the session workflow reads them and
// records only its verdict (credited, late), as db/serviceRoles.ts lets it.
import type { TokenSymbol } from '../../domain/chains/chains';
import type { DepositRef } from '../../domain/session/deposit';
import type { DepositFact } from '../../domain/settlement/depositBacking';
import type { Network } from '../../domain/chains/tokenContracts';
import type { Queryable } from '../client';

/** The indexer's record of a deposit: what the workflow tracks and credits, whatever a signal claimed. */
export interface RecordedDepositFacts {
  token: TokenSymbol;
  amount: string;
  fromAddress: string;
  toAddress: string;
  blockNumber: string;
  blockHash: string;
}

/** The indexer's record of a confirmed deposit, with the depth it counted. */
export interface ConfirmedDepositFacts extends RecordedDepositFacts {
  confirmations: number;
}

/** The deposit as the indexer recorded it for this session and network, at whatever stage it is now. */
export async function findRecordedDeposit(
  sql: Queryable,
  sessionId: string,
  network: Network,
  ref: DepositRef,
): Promise<RecordedDepositFacts | undefined> {
  const [row] = await sql<RecordedDepositFacts[]>`
    select token, amount_base_units::text as amount, from_address as "fromAddress", to_address as "toAddress",
           block_number::text as "blockNumber", block_hash as "blockHash"
    from deposits
    where chain = ${ref.chain} and tx_hash = ${ref.txHash} and log_index = ${ref.logIndex}
      and network = ${network} and session_id = ${sessionId}`;
  return row;
}

/** The deposit as the indexer recorded it for this session and network, if it is confirmed. */
export async function findConfirmedDeposit(
  sql: Queryable,
  sessionId: string,
  network: Network,
  ref: DepositRef,
): Promise<ConfirmedDepositFacts | undefined> {
  const [row] = await sql<ConfirmedDepositFacts[]>`
    select token, amount_base_units::text as amount, from_address as "fromAddress", to_address as "toAddress",
           block_number::text as "blockNumber", block_hash as "blockHash", confirmations
    from deposits
    where chain = ${ref.chain} and tx_hash = ${ref.txHash} and log_index = ${ref.logIndex}
      and network = ${network} and session_id = ${sessionId} and stage = 'confirmed'`;
  return row;
}

/** Every deposit the indexer recorded for the session, as the payout's backing check judges them. */
export async function sessionDepositFacts(sql: Queryable, sessionId: string): Promise<DepositFact[]> {
  return sql<DepositFact[]>`
    select chain, network, token, tx_hash as "txHash", log_index as "logIndex", to_address as "toAddress",
           amount_base_units as amount, stage, confirmations, credited
    from deposits where session_id = ${sessionId}`;
}

/** The workflow's verdict on one of the session's deposits: credited once confirmed and on time, or late. */
export async function setDepositVerdict(
  sql: Queryable,
  sessionId: string,
  network: Network,
  ref: DepositRef,
  verdict: { credited: boolean; late: boolean },
): Promise<void> {
  await sql`
    update deposits set credited = ${verdict.credited}, late = ${verdict.late}, updated_at = now()
    where chain = ${ref.chain} and tx_hash = ${ref.txHash} and log_index = ${ref.logIndex}
      and network = ${network} and session_id = ${sessionId}`;
}
