// The indexer's side of the deposits table: each on-chain transfer to a watched address once, keyed by
// (chain, tx_hash, log_index), with its block, stage and confirmation depth, and what was signalled about it.
import type { Queryable } from '../../db/client';
import type { TokenSymbol } from '../../domain/chains/chains';
import type { DepositStage } from '../../domain/session/deposit';
import type { ChainKey } from './cursor';

export interface NewDeposit {
  sessionId: string;
  token: TokenSymbol;
  txHash: string;
  logIndex: number;
  /** Base units, integer. */
  amount: bigint;
  fromAddress: string;
  toAddress: string;
  blockNumber: bigint;
  blockHash: string;
}

export interface DepositRow extends Omit<NewDeposit, 'amount'> {
  chain: ChainKey['chain'];
  network: ChainKey['network'];
  /** Integer string: numeric(78,0) never passes through a JS number. */
  amount: string;
  stage: DepositStage;
  confirmations: number;
  signalledStage: DepositStage | null;
  signalledBlockHash: string | null;
  signalledConfirmations: number;
  /** Signal steps recorded so far; part of each signal's request id, so a resend is deduplicated, a new step is not. */
  signalSeq: number;
}

interface Row {
  chain: ChainKey['chain'];
  network: ChainKey['network'];
  session_id: string;
  token: TokenSymbol;
  tx_hash: string;
  log_index: number;
  amount_base_units: string;
  from_address: string;
  to_address: string;
  block_number: bigint;
  block_hash: string;
  stage: DepositStage;
  confirmations: number;
  signalled_stage: DepositStage | null;
  signalled_block_hash: string | null;
  signalled_confirmations: number;
  signal_seq: number;
}

const toDeposit = (r: Row): DepositRow => ({
  chain: r.chain,
  network: r.network,
  sessionId: r.session_id,
  token: r.token,
  txHash: r.tx_hash,
  logIndex: r.log_index,
  amount: r.amount_base_units,
  fromAddress: r.from_address,
  toAddress: r.to_address,
  blockNumber: r.block_number,
  blockHash: r.block_hash,
  stage: r.stage,
  confirmations: r.confirmations,
  signalledStage: r.signalled_stage,
  signalledBlockHash: r.signalled_block_hash,
  signalledConfirmations: r.signalled_confirmations,
  signalSeq: r.signal_seq,
});

/**
 * Stores newly seen deposits; one already stored is left alone, which makes rescanning a range harmless.
 * Exceptions: a reorged transfer seen again (re-mined, or its old block back on the canonical chain) and a
 * detected one seen under another block hash take the block seen now and start over as detected. A confirmed
 * deposit is final. Returns how many rows were written.
 */
export async function upsertDeposits(sql: Queryable, key: ChainKey, deposits: readonly NewDeposit[]): Promise<number> {
  if (deposits.length === 0) return 0;
  const rows = deposits.map((d) => ({
    chain: key.chain,
    network: key.network,
    tx_hash: d.txHash,
    log_index: d.logIndex,
    session_id: d.sessionId,
    token: d.token,
    amount_base_units: d.amount.toString(),
    from_address: d.fromAddress,
    to_address: d.toAddress,
    block_number: d.blockNumber.toString(),
    block_hash: d.blockHash,
    stage: 'detected',
  }));
  const written = await sql`
    insert into deposits ${sql(rows)}
    on conflict (chain, tx_hash, log_index) do update
      set block_number = excluded.block_number, block_hash = excluded.block_hash, stage = 'detected', confirmations = 0, updated_at = now()
      where deposits.stage = 'reorged' or (deposits.stage = 'detected' and deposits.block_hash <> excluded.block_hash)
    returning tx_hash`;
  return written.length;
}

/** Deposits still waiting for their confirmations. */
export async function unconfirmedDeposits(sql: Queryable, key: ChainKey): Promise<DepositRow[]> {
  const rows = await sql<Row[]>`
    select * from deposits where chain = ${key.chain} and network = ${key.network} and stage = 'detected'
    order by block_number, tx_hash, log_index`;
  return rows.map(toDeposit);
}

/** Reorged deposits in blocks above `aboveBlock`: candidates for being canonical again. */
export async function recentReorgedDeposits(sql: Queryable, key: ChainKey, aboveBlock: bigint): Promise<DepositRow[]> {
  const rows = await sql<Row[]>`
    select * from deposits
    where chain = ${key.chain} and network = ${key.network} and stage = 'reorged' and block_number > ${aboveBlock.toString()}
    order by block_number, tx_hash, log_index`;
  return rows.map(toDeposit);
}

type Ref = Pick<DepositRow, 'chain' | 'txHash' | 'logIndex'>;

/** A reorged deposit whose block is canonical after all starts over as detected. */
export async function reviveDeposit(sql: Queryable, ref: Ref, blockHash: string): Promise<boolean> {
  const rows = await sql`
    update deposits set stage = 'detected', confirmations = 0, updated_at = now()
    where chain = ${ref.chain} and tx_hash = ${ref.txHash} and log_index = ${ref.logIndex}
      and stage = 'reorged' and block_hash = ${blockHash}
    returning tx_hash`;
  return rows.length === 1;
}

export async function setConfirmations(sql: Queryable, ref: Ref, confirmations: number): Promise<void> {
  await sql`
    update deposits set confirmations = ${confirmations}, updated_at = now()
    where chain = ${ref.chain} and tx_hash = ${ref.txHash} and log_index = ${ref.logIndex} and stage = 'detected'`;
}

export async function markConfirmed(sql: Queryable, ref: Ref, blockHash: string, confirmations: number): Promise<boolean> {
  const rows = await sql`
    update deposits set stage = 'confirmed', confirmations = ${confirmations}, updated_at = now()
    where chain = ${ref.chain} and tx_hash = ${ref.txHash} and log_index = ${ref.logIndex}
      and stage = 'detected' and block_hash = ${blockHash}
    returning tx_hash`;
  return rows.length === 1;
}

/** A detected deposit whose block left the canonical chain; confirmed ones are final and never touched. */
export async function markReorged(sql: Queryable, ref: Ref, blockHash: string): Promise<boolean> {
  const rows = await sql`
    update deposits set stage = 'reorged', updated_at = now()
    where chain = ${ref.chain} and tx_hash = ${ref.txHash} and log_index = ${ref.logIndex}
      and stage = 'detected' and block_hash = ${blockHash}
    returning tx_hash`;
  return rows.length === 1;
}

/** Rows whose workflow has not yet been told everything the row says. */
export async function depositsWithPendingSignals(sql: Queryable, key: ChainKey, limit: number): Promise<DepositRow[]> {
  const rows = await sql<Row[]>`
    select * from deposits
    where chain = ${key.chain} and network = ${key.network}
      and (signalled_stage is distinct from stage
           or (stage <> 'reorged' and signalled_block_hash is distinct from block_hash)
           or (stage = 'detected' and confirmations > signalled_confirmations))
    order by block_number, tx_hash, log_index
    limit ${limit}`;
  return rows.map(toDeposit);
}

/**
 * A deposit whose session workflow has ended (the session closed): it can never be credited, so the
 * indexer records it as late, for a refund. The workflow's own verdict on a credited deposit is kept.
 */
export async function markLate(sql: Queryable, ref: Ref): Promise<void> {
  await sql`
    update deposits set late = true, updated_at = now()
    where chain = ${ref.chain} and tx_hash = ${ref.txHash} and log_index = ${ref.logIndex} and not credited and not late`;
}

export interface SignalledState {
  stage: DepositStage;
  blockHash: string | null;
  confirmations: number;
}

/** Records one signal step; `seq` guards against two writers recording the same step twice. */
export async function recordSignalled(sql: Queryable, ref: Ref & { signalSeq: number }, state: SignalledState): Promise<void> {
  await sql`
    update deposits
    set signalled_stage = ${state.stage}, signalled_block_hash = ${state.blockHash}, signalled_confirmations = ${state.confirmations},
        signal_seq = signal_seq + 1
    where chain = ${ref.chain} and tx_hash = ${ref.txHash} and log_index = ${ref.logIndex} and signal_seq = ${ref.signalSeq}`;
}
