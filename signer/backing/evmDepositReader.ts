// An EVM deposit as the node records it, read by the signer straight from an RPC endpoint and not from the indexer's
// row: the token contract's Transfer log at the deposit's log index in the mined transaction's receipt, to the
// deposit address, and how deep its block now is (blocks including its own, as the indexer counts). A receipt the
// node does not have is `unseen` (it may trail the indexer's node), one that reverted is `failed`.
import {
  createPublicClient,
  decodeEventLog,
  erc20Abi,
  http,
  isAddressEqual,
  TransactionReceiptNotFoundError,
  type Address,
  type Hash,
} from 'viem';
import type { ChainReading, DepositReader } from '../../domain/settlement/depositBacking';

export function createEvmDepositReader(rpcUrl: string, rpcTimeoutMs = 10_000): DepositReader {
  // cacheTime 0: the depth is read from the newest block number, never viem's cached one.
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: rpcTimeoutMs }), cacheTime: 0 });
  return async function readEvmDeposit(deposit): Promise<ChainReading> {
    const receipt = await client.getTransactionReceipt({ hash: deposit.txHash as Hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    });
    if (!receipt) return { kind: 'unseen' };
    if (receipt.status !== 'success') return { kind: 'failed' };
    const log = receipt.logs.find((l) => l.logIndex === deposit.logIndex && isAddressEqual(l.address, deposit.token as Address));
    if (!log) return { kind: 'uncredited' };
    const transfer = (() => {
      try {
        return decodeEventLog({ abi: erc20Abi, eventName: 'Transfer', data: log.data, topics: log.topics });
      } catch {
        return undefined;
      }
    })();
    if (!transfer || !isAddressEqual(transfer.args.to, deposit.owner as Address) || transfer.args.value <= 0n)
      return { kind: 'uncredited' };
    const tip = await client.getBlockNumber();
    return {
      kind: 'credited',
      amount: transfer.args.value,
      confirmations: tip >= receipt.blockNumber ? Number(tip - receipt.blockNumber + 1n) : 0,
    };
  };
}
