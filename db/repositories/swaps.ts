// swaps: USDT sold for USDC in a DepositCollector (db/migrations/0013_swaps.sql). Each change names the stage it
// expects, so a retried pass that finds the work done changes nothing.
import type { CctpSourceChain } from '../../domain/cctp/domains';
import type { SwapStage } from '../../domain/swaps/swap';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

export interface Swap {
  id: string;
  mode: Mode;
  chain: CctpSourceChain;
  tokenIn: string;
  amountIn: bigint;
  poolFee: number;
  minOut: bigint;
  stage: SwapStage;
  intentId: string;
  txHash: string | null;
  amountOut: bigint | null;
  failure: string | null;
}

interface SwapRow {
  id: string;
  mode: Mode;
  chain: CctpSourceChain;
  token_in: string;
  amount_in: string;
  pool_fee: number;
  min_out: string;
  stage: SwapStage;
  intent_id: string;
  tx_hash: string | null;
  amount_out: string | null;
  failure: string | null;
}

const toSwap = (r: SwapRow): Swap => ({
  id: r.id,
  mode: r.mode,
  chain: r.chain,
  tokenIn: r.token_in,
  amountIn: BigInt(r.amount_in),
  poolFee: r.pool_fee,
  minOut: BigInt(r.min_out),
  stage: r.stage,
  intentId: r.intent_id,
  txHash: r.tx_hash,
  amountOut: r.amount_out === null ? null : BigInt(r.amount_out),
  failure: r.failure,
});

export async function insertSwap(
  sql: Queryable,
  swap: Pick<Swap, 'id' | 'mode' | 'chain' | 'tokenIn' | 'amountIn' | 'poolFee' | 'minOut' | 'intentId'>,
): Promise<void> {
  await sql`
    insert into swaps (id, mode, chain, token_in, amount_in, pool_fee, min_out, intent_id)
    values (${swap.id}, ${swap.mode}, ${swap.chain}, ${swap.tokenIn}, ${swap.amountIn.toString()}, ${swap.poolFee}, ${swap.minOut.toString()}, ${swap.intentId})
    on conflict (id) do nothing`;
}

export async function findSwap(sql: Queryable, id: string): Promise<Swap | undefined> {
  const [row] = await sql<SwapRow[]>`select * from swaps where id = ${id}`;
  return row && toSwap(row);
}

export async function swapInFlight(sql: Queryable, mode: Mode, chain: CctpSourceChain): Promise<Swap | undefined> {
  const [row] = await sql<SwapRow[]>`select * from swaps where mode = ${mode} and chain = ${chain} and stage = 'swapping'`;
  return row && toSwap(row);
}

export async function setSwapSwapped(sql: Queryable, id: string, landed: { txHash: string; amountOut: bigint }): Promise<void> {
  await sql`
    update swaps set stage = 'swapped', tx_hash = ${landed.txHash}, amount_out = ${landed.amountOut.toString()}, updated_at = now()
    where id = ${id} and stage = 'swapping'`;
}

export async function setSwapFailed(sql: Queryable, id: string, failure: { txHash: string; reason: string }): Promise<void> {
  await sql`
    update swaps set stage = 'failed', tx_hash = ${failure.txHash}, failure = ${failure.reason}, updated_at = now()
    where id = ${id} and stage = 'swapping'`;
}
