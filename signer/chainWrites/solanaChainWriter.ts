// Write-ahead Solana transactions (docs/settlement.md#r1-written-ahead). An intent row exists first; signing stores
// the wire bytes, signature and last valid block height before anything is sent; every broadcast sends those stored
// bytes, so a process killed at any point resumes from the row and the cluster sees one transaction, however often it
// is sent. A replacement is signed only once judgeAttempt proves the stored one dead; its signature is kept. A
// transaction signed against a durable nonce (a payout's) is never replaced: it is sent until its nonce moves on.
import { fetchMaybeNonce, NonceState } from '@solana-program/system';
import {
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isSolanaError,
  isTransactionWithBlockhashLifetime,
  isTransactionWithDurableNonceLifetime,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
  type Address,
  type Base64EncodedWireTransaction,
  type Blockhash,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
  type Transaction,
  type TransactionWithLifetime,
} from '@solana/kit';
import type { Queryable, Sql } from '../../db/client';
import {
  findChainIntent,
  recordBroadcast,
  recordLanded,
  recordSigned,
  recordSuperseded,
  type ChainIntent,
} from '../../db/repositories/chainIntents';
import { judgeAttempt, judgeNonceAttempt, type AttemptVerdict, type SignatureStatus } from '../../domain/chainWrites/solanaChainIntent';
import { rpcDeadline } from '../../activities/http/rpcDeadline';

export interface BlockhashLifetime {
  blockhash: Blockhash;
  lastValidBlockHeight: bigint;
}

export type SignOutcome =
  /** `durableNonce`: signed against this nonce account's nonce instead of the blockhash given. */
  | { kind: 'signed'; transaction: Transaction & TransactionWithLifetime; durableNonce?: { account: Address; value: string } }
  /** Not now (the treasury is short, say): nothing is signed and the intent stays prepared. */
  | { kind: 'deferred'; reason: string };

/**
 * Builds and signs the intent's transaction for `lifetime`. Runs inside the transaction that holds the intent's
 * row lock (`sql`), so checks it makes and the signature it returns cannot interleave with another process's.
 */
export type SignIntent = (lifetime: BlockhashLifetime, sql: Queryable) => Promise<SignOutcome>;

export interface WriteProgress {
  intent: ChainIntent;
  /** Why nothing was signed, when the signer deferred. */
  deferred?: string;
}

export interface SolanaChainWriterDeps {
  sql: Sql;
  rpc: Rpc<SolanaRpcApi>;
  /** Each chain call's limit; 10 s unless given. */
  rpcTimeoutMs?: number;
}

/** The preflight refusal's cause, when the node refused a sent transaction before forwarding it. */
function preflightCause(error: unknown): 'already-processed' | 'blockhash-not-found' | undefined {
  if (!isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) return undefined;
  if (isSolanaError(error.cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)) return 'already-processed';
  if (isSolanaError(error.cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND)) return 'blockhash-not-found';
  return undefined;
}

/** A transaction error back in the node's JSON shape: the RPC client reads its integers as bigint, JSON has none. */
function wireJson(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) =>
      typeof v === 'bigint' ? (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString()) : v,
    ),
  );
}

export function createSolanaChainWriter(deps: SolanaChainWriterDeps) {
  const { sql, rpc } = deps;
  const deadline = () => rpcDeadline(deps.rpcTimeoutMs);

  async function load(sqlOrTx: Queryable, id: string, options: { lock?: boolean } = {}): Promise<ChainIntent> {
    const intent = await findChainIntent(sqlOrTx, id, options);
    if (!intent) throw new Error(`no chain intent ${id}`);
    return intent;
  }

  /** Signs and stores a transaction for a prepared intent; any other intent is returned as it is. */
  async function sign(id: string, signIntent: SignIntent): Promise<WriteProgress> {
    return sql.begin(async (tx): Promise<WriteProgress> => {
      const intent = await load(tx, id, { lock: true });
      if (intent.status !== 'prepared') return { intent };
      const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send(deadline());
      const outcome = await signIntent(lifetime, tx);
      if (outcome.kind === 'deferred') return { intent, deferred: outcome.reason };
      const { transaction, durableNonce } = outcome;
      const signed = { wireTransaction: getBase64EncodedWireTransaction(transaction), signature: getSignatureFromTransaction(transaction) };
      if (durableNonce) {
        // The stored nonce is what tells later whether these bytes can still land: it must be the one they name.
        if (!isTransactionWithDurableNonceLifetime(transaction) || transaction.lifetimeConstraint.nonce !== durableNonce.value)
          throw new Error(`intent ${id} was signed against another nonce than the one given`);
        await recordSigned(tx, id, { ...signed, durableNonce });
        return { intent: await load(tx, id) };
      }
      // The stored height is what proves the transaction dead later: it must be this blockhash's.
      if (!isTransactionWithBlockhashLifetime(transaction) || transaction.lifetimeConstraint.blockhash !== lifetime.blockhash)
        throw new Error(`intent ${id} was signed against another blockhash than the one given`);
      await recordSigned(tx, id, { ...signed, lastValidBlockHeight: lifetime.lastValidBlockHeight });
      return { intent: await load(tx, id) };
    });
  }

  /**
   * Sends the stored bytes. "Already processed" means they reached the cluster before, which is what sending is
   * for; "blockhash not found" means they never will, which observe() turns into a replacement once it is proven.
   */
  async function broadcast(id: string): Promise<ChainIntent> {
    const intent = await load(sql, id);
    if ((intent.status !== 'signed' && intent.status !== 'broadcast') || !intent.wireTransaction || !intent.signature) return intent;
    try {
      await rpc
        .sendTransaction(intent.wireTransaction as Base64EncodedWireTransaction, { encoding: 'base64', preflightCommitment: 'confirmed' })
        .send(deadline());
    } catch (error) {
      const cause = preflightCause(error);
      if (cause === 'blockhash-not-found') return intent;
      if (cause !== 'already-processed') throw error;
    }
    await recordBroadcast(sql, id, intent.signature);
    return load(sql, id);
  }

  async function signatureStatus(signature: string): Promise<SignatureStatus | null> {
    const { value } = await rpc.getSignatureStatuses([signature as Signature], { searchTransactionHistory: true }).send(deadline());
    const status = value[0];
    return status ? { slot: status.slot, confirmationStatus: status.confirmationStatus, err: status.err } : null;
  }

  /** The nonce the account holds in the finalized chain; null when no initialized nonce account is there. */
  async function finalizedNonce(account: string): Promise<string | null> {
    const nonce = await fetchMaybeNonce(rpc, account as Address, { commitment: 'finalized', abortSignal: deadline().abortSignal });
    return nonce.exists && nonce.data.state === NonceState.Initialized ? nonce.data.blockhash : null;
  }

  async function judge(intent: ChainIntent, signature: string): Promise<AttemptVerdict | undefined> {
    const { nonceAccount, nonceValue, lastValidBlockHeight } = intent;
    if (nonceAccount !== null && nonceValue !== null) {
      // Status before nonce (judgeNonceAttempt says why).
      const status = await signatureStatus(signature);
      return judgeNonceAttempt(status, { signedNonce: nonceValue, finalizedNonce: status ? null : await finalizedNonce(nonceAccount) });
    }
    if (lastValidBlockHeight === null) return undefined;
    // Height before status, from the same endpoint (judgeAttempt says why).
    const finalizedBlockHeight = await rpc.getBlockHeight({ commitment: 'finalized' }).send(deadline());
    return judgeAttempt(await signatureStatus(signature), { lastValidBlockHeight, finalizedBlockHeight });
  }

  /** Asks the cluster about the stored transaction and records what it proves. */
  async function observe(id: string): Promise<{ intent: ChainIntent; verdict?: AttemptVerdict }> {
    const intent = await load(sql, id);
    const { signature } = intent;
    if (!['signed', 'broadcast', 'confirmed'].includes(intent.status) || signature === null) return { intent };
    const verdict = await judge(intent, signature);
    if (!verdict) return { intent };
    switch (verdict.kind) {
      case 'failed':
        await recordLanded(sql, id, signature, { status: 'failed', slot: verdict.slot, error: wireJson(verdict.err) });
        break;
      case 'finalized':
        await recordLanded(sql, id, signature, { status: 'finalized', slot: verdict.slot });
        break;
      case 'confirmed':
        if (intent.status !== 'confirmed') await recordLanded(sql, id, signature, { status: 'confirmed', slot: verdict.slot });
        break;
      case 'processed':
        await recordBroadcast(sql, id, signature);
        break;
      case 'dead':
        await recordSuperseded(sql, id, signature);
        break;
      case 'unseen':
      case 'nonce-moved':
        break;
    }
    return { intent: await load(sql, id), verdict };
  }

  /**
   * One resumable pass: learn what the cluster knows, sign when there is nothing alive to wait for, send the
   * stored bytes while they are unseen. Call again until the intent is confirmed (then finalized) or failed.
   */
  async function advance(id: string, signIntent: SignIntent): Promise<WriteProgress> {
    const { intent, verdict } = await observe(id);
    if (intent.status === 'prepared') {
      const signed = await sign(id, signIntent);
      if (signed.deferred !== undefined) return signed;
      return { intent: await broadcast(id) };
    }
    if (verdict?.kind === 'unseen') return { intent: await broadcast(id) };
    return { intent };
  }

  return { sign, broadcast, observe, advance };
}

export type SolanaChainWriter = ReturnType<typeof createSolanaChainWriter>;
