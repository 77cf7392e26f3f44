// The JSON-RPC methods a wallet and the service's payout writer use, answered from the local chain in a node's
// shapes: balances and accounts (base64 only), token balances and supply, sendTransaction with or without
// preflight, and getSignatureStatuses. A transaction sent lands in the slot being filled and counts as
// `processed` until its block is produced, `finalized` once 32 blocks deep.
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { address as toAddress, getBase58Decoder, getBase58Encoder, getBase64Encoder, getTransactionDecoder, type Address } from '@solana/kit';
import type { LocalSolanaChain } from './localSolanaChain';
import { RpcFailure } from './rpcFailure';
import { uiAmountString } from './tokenBalances';

/** What a cluster counts as finalized: a block with 31 confirmed blocks on top of it. */
const FINALIZED_DEPTH = 32n;
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
  if (account.programAddress !== TOKEN_PROGRAM_ADDRESS || account.data.length !== size) throw new RpcFailure(-32602, `Invalid param: not a ${what}`);
  return account.data;
}

function sendTransaction(chain: LocalSolanaChain, params: unknown[]): string {
  const [encoded, config = {}] = params as [unknown, { encoding?: string; skipPreflight?: boolean }?];
  if (typeof encoded !== 'string') throw new RpcFailure(-32602, 'Invalid params: the transaction must be a string');
  const bytes = config.encoding === 'base64' ? getBase64Encoder().encode(encoded) : getBase58Encoder().encode(encoded);
  const tx = getTransactionDecoder().decode(bytes);
  if (!config.skipPreflight) {
    const refused = chain.preflight(tx);
    if (refused) throw new RpcFailure(-32002, `Transaction simulation failed: ${JSON.stringify(refused.err)}`, { ...refused, accounts: null, unitsConsumed: 0 });
  }
  const [feePayerSignature] = Object.values(tx.signatures);
  try {
    return chain.send(tx, { allowFailure: true }).signature;
  } catch {
    // Without preflight a node accepts what it cannot execute and drops it: the signature never lands.
    if (!feePayerSignature) throw new RpcFailure(-32602, 'Invalid params: the transaction is not signed');
    return getBase58Decoder().decode(feePayerSignature);
  }
}

function signatureStatuses(chain: LocalSolanaChain, params: unknown[]) {
  const signatures = params[0];
  if (!Array.isArray(signatures)) throw new RpcFailure(-32602, 'Invalid params: expected an array of signatures');
  return withContext(
    chain,
    signatures.map((signature) => {
      const found = typeof signature === 'string' ? chain.findTransaction(signature) : undefined;
      if (!found) return null;
      const depth = chain.tip() - found.slot + 1n;
      const finalized = found.sealed && depth >= FINALIZED_DEPTH;
      return {
        slot: Number(found.slot),
        confirmations: finalized ? null : found.sealed ? Number(depth - 1n) : 0,
        err: found.record.meta.err,
        status: found.record.meta.status,
        confirmationStatus: finalized ? 'finalized' : found.sealed ? 'confirmed' : 'processed',
      };
    }),
  );
}

/** undefined: not a wallet method (the caller answers the rest). */
export function answerWalletMethod(chain: LocalSolanaChain, method: string, params: unknown[]): { result: unknown } | undefined {
  switch (method) {
    case 'getBalance':
      return { result: withContext(chain, Number(chain.svm.getBalance(addressParam(params)) ?? 0n)) };
    case 'getAccountInfo': {
      const config = (params[1] ?? {}) as { encoding?: string };
      if (config.encoding !== 'base64') throw new RpcFailure(-32602, 'Invalid params: this local node serves accounts in base64 only');
      const account = chain.svm.getAccount(addressParam(params));
      const value = account.exists
        ? { data: [Buffer.from(account.data).toString('base64'), 'base64'], executable: account.executable, lamports: Number(account.lamports), owner: account.programAddress, rentEpoch: 0, space: account.data.length }
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
      return { result: sendTransaction(chain, params) };
    case 'getSignatureStatuses':
      return { result: signatureStatuses(chain, params) };
    default:
      return undefined;
  }
}
