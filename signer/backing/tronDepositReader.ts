// A Tron deposit as the node records it, read by the signer from java-tron's HTTP API and not from the indexer's row
// (nor from the JSON-RPC endpoint the indexer reads): the solidified TransactionInfo of the deposit's transaction,
// its receipt, and the TRC-20 Transfer log at the deposit's log index in its block, to the deposit address. Only the
// solidified view is asked, so a transaction it lists can no longer be undone; the depth counts blocks up to the
// solidified head, including the deposit's own.
import { tronAddressToEvmHex } from '../../domain/addresses/tron';
import type { ChainReading, DepositReader } from '../../domain/settlement/depositBacking';
import { tronTransferLogs } from '../../domain/sweeps/tronSweptLogs';
import { createTronWalletApi, type TronWalletApiOptions } from '../../activities/http/tronWalletApi';

export function createTronDepositReader(options: TronWalletApiOptions): DepositReader {
  const api = createTronWalletApi(options);
  return async function readTronDeposit(deposit): Promise<ChainReading> {
    const info = await api.transactionInfo('solidified', deposit.txHash);
    if (!info) return { kind: 'unseen' };
    if (info.failed || info.receiptResult !== 'SUCCESS') return { kind: 'failed' };
    const [{ logs, firstLogIndex }, head] = await Promise.all([api.solidifiedLogs(deposit.txHash, info.blockNumber), api.solidifiedHead()]);
    const [token, owner] = [tronAddressToEvmHex(deposit.token).toLowerCase(), tronAddressToEvmHex(deposit.owner).toLowerCase()];
    const transfer = tronTransferLogs(logs, firstLogIndex).find((t) => t.logIndex === deposit.logIndex);
    if (!transfer || transfer.emitter !== token || transfer.to !== owner || transfer.value <= 0n) return { kind: 'uncredited' };
    return {
      kind: 'credited',
      amount: transfer.value,
      confirmations: head.number >= info.blockNumber ? Number(head.number - info.blockNumber + 1n) : 0,
    };
  };
}
