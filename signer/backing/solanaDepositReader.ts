// A Solana deposit as the node records it, read by the signer straight from an RPC endpoint and not from the
// indexer's row: what the transaction credited the deposit address's token account (the balance the node
// recorded after it, less the one before, as the indexer measures a deposit) and how deep its slot now is.
import { createSolanaRpc, type Signature, type TokenBalance } from '@solana/kit';
import type { DepositReader, DepositToRead } from '../../domain/settlement/depositBacking';
import { rpcDeadline } from '../../activities/http/rpcDeadline';

const amountAt = (balances: readonly TokenBalance[] | undefined, deposit: DepositToRead): bigint => {
  const entry = balances?.find((b) => b.accountIndex === deposit.logIndex && b.mint === deposit.token && b.owner === deposit.owner);
  return entry ? BigInt(entry.uiTokenAmount.amount) : 0n;
};

export function createSolanaDepositReader(rpcUrl: string, rpcTimeoutMs?: number): DepositReader {
  const rpc = createSolanaRpc(rpcUrl);
  return async function readSolanaDeposit(deposit) {
    const [landed, slot] = await Promise.all([
      rpc
        .getTransaction(deposit.txHash as Signature, { encoding: 'base64', commitment: 'confirmed', maxSupportedTransactionVersion: 0 })
        .send(rpcDeadline(rpcTimeoutMs)),
      rpc.getSlot({ commitment: 'confirmed' }).send(rpcDeadline(rpcTimeoutMs)),
    ]);
    if (!landed?.meta) return { kind: 'unseen' };
    // A failed transaction moves no tokens, whatever balances it lists.
    if (landed.meta.err !== null) return { kind: 'failed' };
    const amount = amountAt(landed.meta.postTokenBalances, deposit) - amountAt(landed.meta.preTokenBalances, deposit);
    if (amount <= 0n) return { kind: 'uncredited' };
    return { kind: 'credited', amount, confirmations: slot >= landed.slot ? Number(slot - landed.slot + 1n) : 0 };
  };
}
