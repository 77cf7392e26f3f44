// The JSON-RPC methods that send and look up transactions, in a Solana node's shapes: sendTransaction (base64,
// with or without preflight, refusals as -32002 "Transaction simulation failed" carrying `data.err`),
// getSignatureStatuses (the recent status cache, or the whole ledger with searchTransactionHistory) and
// getTransaction (base64). `dropping` stands in for a transaction lost on its way to the leader: the node answers
// with the signature, as it does for every accepted transaction, and nothing ever lands.
import { getBase58Decoder, getTransactionDecoder, type Transaction } from '@solana/kit';
import type { LandedTransaction, LocalSolanaChain } from './localSolanaChain';
import { commitmentOf, RpcFailure } from './rpcFailure';

/** Blocks a node's status cache answers for without searchTransactionHistory (~300 slots). */
const STATUS_CACHE_BLOCKS = 300;

/** How Agave prints the errors preflight reports. */
const ERROR_TEXT: Record<string, string> = {
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
};

function errorText(err: unknown): string {
  if (typeof err === 'string') return ERROR_TEXT[err] ?? err;
  if (typeof err === 'object' && err !== null && 'InstructionError' in err && Array.isArray(err.InstructionError)) {
    const [index, detail] = err.InstructionError as [number, unknown];
    const custom = typeof detail === 'object' && detail !== null && 'Custom' in detail ? `custom program error: 0x${Number(detail.Custom).toString(16)}` : String(detail);
    return `Error processing Instruction ${index}: ${custom}`;
  }
  return JSON.stringify(err);
}

function decodeWire(params: unknown[]): Transaction {
  const config = (params[1] ?? {}) as { encoding?: string };
  if (config.encoding !== 'base64') throw new RpcFailure(-32602, 'Invalid params: this test node accepts base64-encoded transactions only');
  try {
    return getTransactionDecoder().decode(Buffer.from(String(params[0]), 'base64'));
  } catch {
    throw new RpcFailure(-32602, 'invalid transaction: failed to deserialize');
  }
}

function status(chain: LocalSolanaChain, found: LandedTransaction) {
  const { err } = found.record.meta;
  const base = { slot: Number(found.slot), err, status: err === null ? { Ok: null } : { Err: err } };
  if (!found.block) return { ...base, confirmations: 0, confirmationStatus: 'processed' };
  if (found.block.blockHeight <= chain.finalizedBlock().blockHeight) return { ...base, confirmations: null, confirmationStatus: 'finalized' };
  return { ...base, confirmations: chain.tipBlock().blockHeight - found.block.blockHeight, confirmationStatus: 'confirmed' };
}

function transaction(chain: LocalSolanaChain, params: unknown[]): unknown {
  const config = (params[1] ?? {}) as { encoding?: string; maxSupportedTransactionVersion?: number };
  if (config.encoding !== 'base64') throw new RpcFailure(-32602, 'Invalid params: this test node serves encoding base64 only');
  const found = chain.find(String(params[0]));
  if (!found?.block) return null;
  if (commitmentOf(config) === 'finalized' && found.block.blockHeight > chain.finalizedBlock().blockHeight) return null;
  if (config.maxSupportedTransactionVersion === undefined && found.record.version !== 'legacy') {
    throw new RpcFailure(
      -32015,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
  return {
    slot: Number(found.slot),
    blockTime: found.block.blockTime,
    transaction: [found.record.wire, 'base64'],
    meta: { ...found.record.meta, innerInstructions: [], logMessages: [], loadedAddresses: { readonly: [], writable: [] }, rewards: [], computeUnitsConsumed: 0 },
    ...(config.maxSupportedTransactionVersion === undefined ? {} : { version: found.record.version }),
  };
}

/** The answer to `method`, or undefined when this module does not serve it. */
export function answerTransactions(chain: LocalSolanaChain, method: string, params: unknown[], options: { dropping: boolean }): { result: unknown } | undefined {
  switch (method) {
    case 'sendTransaction': {
      const tx = decodeWire(params);
      if (options.dropping) return { result: getBase58Decoder().decode(Object.values(tx.signatures)[0] ?? new Uint8Array(64)) };
      const preflight = (params[1] as { skipPreflight?: boolean }).skipPreflight !== true;
      const sent = chain.submit(tx, { preflight });
      // Without preflight a node forwards whatever it is given and answers with the signature.
      if (sent.accepted || !preflight) return { result: sent.signature };
      throw new RpcFailure(-32002, `Transaction simulation failed: ${errorText(sent.err)}`, {
        accounts: null,
        err: sent.err,
        innerInstructions: null,
        loadedAccountsDataSize: 0,
        logs: [],
        replacementBlockhash: null,
        returnData: null,
        unitsConsumed: 0,
      });
    }
    case 'getSignatureStatuses': {
      const signatures = params[0];
      if (!Array.isArray(signatures)) throw new RpcFailure(-32602, 'Invalid params: expected an array of signatures');
      const history = (params[1] as { searchTransactionHistory?: boolean } | undefined)?.searchTransactionHistory === true;
      const tipHeight = chain.tipBlock().blockHeight;
      const value = signatures.map((signature) => {
        const found = chain.find(String(signature));
        if (!found) return null;
        if (!history && found.block && tipHeight - found.block.blockHeight > STATUS_CACHE_BLOCKS) return null;
        return status(chain, found);
      });
      return { result: { context: { slot: Number(chain.tip()) }, value } };
    }
    case 'getTransaction':
      return { result: transaction(chain, params) };
    default:
      return undefined;
  }
}
