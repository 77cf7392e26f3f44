// The chosen payment of a session and the deposit on its way, as the hosted checkout page follows them.
// The workflow writes payments (activities/payments) and the indexer writes deposits' confirmations.
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import type { Sql } from '../client';

export interface PaymentRecord {
  paymentId: string;
  token: TokenSymbol;
  chain: Chain;
  depositAddress: string;
  /** Null on a row written without it; such a payment cannot be shown and is chosen again. */
  tokenAddress: string | null;
  evmChainId: number | null;
  expectedBaseUnits: bigint;
  receivedBaseUnits: bigint;
  decimals: number;
}

export async function findPayment(sql: Sql, sessionId: string): Promise<PaymentRecord | undefined> {
  const [row] = await sql<
    {
      id: string;
      token: TokenSymbol;
      chain: Chain;
      deposit_address: string;
      token_address: string | null;
      evm_chain_id: number | null;
      expected: string;
      received: string;
      decimals: number;
    }[]
  >`
    select id, token, chain, deposit_address, token_address, evm_chain_id,
           expected_base_units::text as expected, received_base_units::text as received, decimals
    from payments where session_id = ${sessionId}`;
  return (
    row && {
      paymentId: row.id,
      token: row.token,
      chain: row.chain,
      depositAddress: row.deposit_address,
      tokenAddress: row.token_address,
      evmChainId: row.evm_chain_id,
      expectedBaseUnits: BigInt(row.expected),
      receivedBaseUnits: BigInt(row.received),
      decimals: row.decimals,
    }
  );
}

/** The newest deposit still counting confirmations (not yet confirmed, not reorged out, not a late one). */
export async function findPendingDeposit(sql: Sql, sessionId: string): Promise<{ chain: Chain; confirmations: number } | undefined> {
  const [row] = await sql<{ chain: Chain; confirmations: number }[]>`
    select chain, confirmations from deposits
    where session_id = ${sessionId} and stage = 'detected' and not late
    order by created_at desc, block_number desc limit 1`;
  return row;
}
