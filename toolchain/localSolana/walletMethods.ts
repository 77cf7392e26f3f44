// The JSON-RPC methods a wallet and the service's payout writer use, answered from the local chain in a node's
// shapes: balances and accounts (base64 only), token balances and supply, getMinimumBalanceForRentExemption,
// sendTransaction with or without preflight, getSignatureStatuses (the recent status cache, or the whole ledger
// with searchTransactionHistory) and getTransaction (base64). A transaction sent lands in the slot being filled and
// counts as `processed` until its block is produced, `finalized` once FINALITY_DEPTH blocks deep. `dropping`
// stands in for a transaction lost on its way to the leader: the node answers with the signature, as it does for
// every accepted transaction, and nothing ever lands. Account reads answer from the newest state whatever the
// commitment.
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import {
  address as toAddress,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Encoder,
  getTransactionDecoder,
  type Address,
} from '@solana/kit';
import type { LocalSolanaChain } from './localSolanaChain';
import { commitmentOf, RpcFailure } from './rpcFailure';
import { uiAmountString } from './tokenBalances';

/** Blocks a node's status cache answers for without searchTransactionHistory (~300 slots). */
const STATUS_CACHE_BLOCKS = 300;
/** Token accounts are exactly 165 bytes and mints 82, as tokenBalances.ts reads them. */
const TOKEN_ACCOUNT_SIZE = 165;
const MINT_SIZE = 82;

function addressParam(params: unknown[]): Address {
  const value = params[0];
  try {
    if (typeof value === 'string') return toAddress(value);
  } catch {
    // Answered below as a node answers a malformed key.
  }
  throw new RpcFailure(-32602, 'Invalid param: Invalid');
}

function tokenAmount(amount: bigint, decimals: number) {
  const text = uiAmountString(amount, decimals);
  return { amount: amount.toString(), decimals, uiAmount: Number(text), uiAmountString: text };
}

function withContext(chain: LocalSolanaChain, value: unknown) {
  return { context: { slot: Number(chain.tip()) }, value };
}

function tokenAccountData(chain: LocalSolanaChain, params: unknown[], size: number, what: string): Uint8Array {
  const account = chain.svm.getAccount(addressParam(params));
  if (!account.exists) throw new RpcFailure(-32602, 'Invalid param: could not find account');
  if (account.programAddress !== TOKEN_PROGRAM_ADDRESS || account.data.length !== size)
    throw new RpcFailure(-32602, `Invalid param: not a ${what}`);
  return account.data;
}

function sendTransaction(chain: LocalSolanaChain, params: unknown[], dropping: boolean): string {
  const [encoded, config = {}] = params as [unknown, { encoding?: string; skipPreflight?: boolean }?];
  if (typeof encoded !== 'string') throw new RpcFailure(-32602, 'Invalid params: the transaction must be a string');
  const bytes = config.encoding === 'base64' ? getBase64Encoder().encode(encoded) : getBase58Encoder().encode(encoded);
  const tx = getTransactionDecoder().decode(bytes);
  const [feePayerSignature] = Object.values(tx.signatures);
  if (dropping && feePayerSignature) return getBase58Decoder().decode(feePayerSignature);
  if (!config.skipPreflight) {
    const refused = chain.preflight(tx);
    if (refused)
      throw new RpcFailure(-32002, `Transaction simulation failed: ${JSON.stringify(refused.err)}`, {
        ...refused,
        accounts: null,
        unitsConsumed: 0,
      });
  }
  try {
    return chain.send(tx, { allowFailure: true }).signature;
  } catch {
    // Without preflight a node accepts what it cannot execute and drops it: the signature never lands.
    if (!feePayerSignature) throw new RpcFailure(-32602, 'Invalid params: the transaction is not signed');
    return getBase58Decoder().decode(feePayerSignature);
  }
}

/** A sent transaction on this branch, with its block once produced. */
function landed(chain: LocalSolanaChain, signature: unknown) {
  const found = typeof signature === 'string' ? chain.findTransaction(signature) : undefined;
  return found && { ...found, block: found.sealed ? chain.blockAt(found.slot) : undefined };
}

function signatureStatuses(chain: LocalSolanaChain, params: unknown[]) {
  const signatures = params[0];
  if (!Array.isArray(signatures)) throw new RpcFailure(-32602, 'Invalid params: expected an array of signatures');
  const history = (params[1] as { searchTransactionHistory?: boolean } | undefined)?.searchTransactionHistory === true;
  const tipHeight = chain.latestBlock.blockHeight;
  const finalizedHeight = chain.finalizedBlock.blockHeight;
  return withContext(
    chain,
    signatures.map((signature) => {
      const found = landed(chain, signature);
      if (!found) return null;
      const base = { slot: Number(found.slot), err: found.record.meta.err, status: found.record.meta.status };
      if (!found.block) return { ...base, confirmations: 0, confirmationStatus: 'processed' };
      if (!history && tipHeight - found.block.blockHeight > STATUS_CACHE_BLOCKS) return null;
      if (found.block.blockHeight <= finalizedHeight) return { ...base, confirmations: null, confirmationStatus: 'finalized' };
      return { ...base, confirmations: tipHeight - found.block.blockHeight, confirmationStatus: 'confirmed' };
    }),
  );
}

function transaction(chain: LocalSolanaChain, params: unknown[]): unknown {
  const config = (params[1] ?? {}) as { encoding?: string; maxSupportedTransactionVersion?: number };
  if (config.encoding !== 'base64') throw new RpcFailure(-32602, 'Invalid params: this local node serves encoding base64 only');
  const found = landed(chain, params[0]);
  if (!found?.block) return null;
  if (commitmentOf(config) === 'finalized' && found.block.blockHeight > chain.finalizedBlock.blockHeight) return null;
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
    meta: {
      ...found.record.meta,
      innerInstructions: [],
      logMessages: [],
      loadedAddresses: { readonly: [], writable: [] },
      rewards: [],
      computeUnitsConsumed: 0,
    },
    ...(config.maxSupportedTransactionVersion === undefined ? {} : { version: found.record.version }),
  };
}

/** undefined: not a wallet method (the caller answers the rest). */
export function answerWalletMethod(
  chain: LocalSolanaChain,
  method: string,
  params: unknown[],
  options: { dropping?: boolean } = {},
): { result: unknown } | undefined {
  switch (method) {
    case 'getBalance':
      return { result: withContext(chain, Number(chain.svm.getBalance(addressParam(params)) ?? 0n)) };
    case 'getAccountInfo': {
      const config = (params[1] ?? {}) as { encoding?: string };
      if (config.encoding !== 'base64') throw new RpcFailure(-32602, 'Invalid params: this local node serves accounts in base64 only');
      const account = chain.svm.getAccount(addressParam(params));
      const value = account.exists
        ? {
            data: [Buffer.from(account.data).toString('base64'), 'base64'],
            executable: account.executable,
            lamports: Number(account.lamports),
            owner: account.programAddress,
            rentEpoch: 0,
            space: account.data.length,
          }
        : null;
      return { result: withContext(chain, value) };
    }
    case 'getTokenAccountBalance': {
      const token = getTokenDecoder().decode(tokenAccountData(chain, params, TOKEN_ACCOUNT_SIZE, 'Token account'));
      const mint = chain.svm.getAccount(token.mint);
      if (!mint.exists) throw new RpcFailure(-32602, 'Invalid param: could not find mint');
      return { result: withContext(chain, tokenAmount(token.amount, getMintDecoder().decode(mint.data).decimals)) };
    }
    case 'getTokenSupply': {
      const mint = getMintDecoder().decode(tokenAccountData(chain, params, MINT_SIZE, 'Token mint'));
      return { result: withContext(chain, tokenAmount(mint.supply, mint.decimals)) };
    }
    case 'sendTransaction':
      return { result: sendTransaction(chain, params, options.dropping === true) };
    case 'getSignatureStatuses':
      return { result: signatureStatuses(chain, params) };
    case 'getTransaction':
      return { result: transaction(chain, params) };
    case 'getMinimumBalanceForRentExemption': {
      const size = params[0];
      if (typeof size !== 'number' || !Number.isInteger(size) || size < 0)
        throw new RpcFailure(-32602, 'Invalid params: the data length must be a usize');
      return { result: Number(chain.svm.minimumBalanceForRentExemption(BigInt(size))) };
    }
    default:
      return undefined;
  }
}
