// Write-ahead EVM transactions from a relayer (docs/settlement.md#r1-written-ahead: its sweeps and CCTP burns). An
// intent row fixes the call first; signing takes the relayer's next nonce and stores the raw bytes and hash in the same
// database transaction, before anything is sent; every broadcast sends those stored bytes, so a process killed at
// any point resumes from the row and the chain sees one transaction per nonce. A transaction that waits too long is
// replaced by the same call with the same nonce and higher fees (the old hash kept: either may be mined); a new
// nonce is signed only once two providers show another transaction that took the old one, never on the word of the
// one node (domain/chainWrites/evmChainIntent.ts, docs/settlement.md#never-signed-twice-evm-nonces).
import {
  BaseError,
  keccak256,
  parseTransaction,
  TransactionReceiptNotFoundError,
  type Address,
  type Hash,
  type Hex,
  type LocalAccount,
  type PublicClient,
} from 'viem';
import type { Queryable, Sql } from '../../db/client';
import {
  findChainIntent,
  insertEvmChainIntent,
  recordBroadcast,
  recordEvmMined,
  recordEvmNonceTaken,
  recordEvmReplacement,
  recordEvmSigned,
  recordEvmUnmined,
  takeEvmNonce,
  type ChainIntent,
  type EvmCall,
} from '../../db/repositories/chainIntents';
import type { Chain } from '../../domain/chains/chains';
import {
  gasLimitFor,
  initialFees,
  judgeEvmAttempt,
  judgeNonceTaken,
  nextNonce,
  type NonceTakenRead,
  replacementFees,
  type EvmAttemptVerdict,
  type Fees,
} from '../../domain/chainWrites/evmChainIntent';
import type { Mode } from '../../domain/wire/session';

export interface EvmChainWriterDeps {
  sql: Sql;
  /** A client of the chain's RPC endpoint, with a request timeout: signing reads the chain under row locks. */
  client: PublicClient;
  /**
   * A client of another provider of the chain (its last RPC URL, where that differs from the first): a nonce the
   * first counts used by a transaction it cannot find is signed again only once this one shows that transaction too.
   * Without it such an intent waits, with the reason in `deferred`.
   */
  witness?: PublicClient;
  /** The relayer: pays the gas and signs; one writer per (chain, mode, relayer) hands out its nonces. */
  account: LocalAccount;
  chain: Chain;
  mode: Mode;
  chainId: number;
  /** Blocks, its own included, after which a mined transaction counts final (CHAIN_FACTS' confirmations). */
  requiredConfirmations: number;
  /** How long a signature may wait unmined before a replacement with higher fees is signed. */
  stuckAfterMs: number;
  /** How much a replacement raises both fees, in percent (at least 10, what nodes require). */
  feeBumpPercent: number;
  /** The operator's ceiling on maxFeePerGas, in wei: above it nothing is signed and the intent waits. */
  maxFeePerGasCap: bigint;
}

export interface EvmWriteProgress {
  intent: ChainIntent;
  /** Why nothing new was signed this pass (fees above the ceiling, a nonce not proven taken). */
  deferred?: string;
}

/** Sending bytes the node already has, or whose nonce is already mined, is what a re-broadcast is for: not an error. */
const ALREADY_THERE = /already known|known transaction|already imported|nonce too low|nonce has already been used/i;

function alreadyThere(error: unknown): boolean {
  const text = error instanceof BaseError ? `${error.details} ${error.shortMessage}` : String(error);
  return ALREADY_THERE.test(text);
}

export function createEvmChainWriter(deps: EvmChainWriterDeps) {
  const { sql, client, account } = deps;
  const sender = account.address;

  async function load(sqlOrTx: Queryable, id: string, options: { lock?: boolean } = {}): Promise<ChainIntent> {
    const intent = await findChainIntent(sqlOrTx, id, options);
    if (!intent) throw new Error(`no chain intent ${id}`);
    return intent;
  }

  /** Records what the intent will call; a second prepare of the same id keeps the first call. */
  async function prepare(id: string, call: EvmCall): Promise<ChainIntent> {
    await insertEvmChainIntent(sql, { id, chain: deps.chain, mode: deps.mode, sender, call });
    const intent = await load(sql, id);
    if (intent.chain !== deps.chain || intent.sender?.toLowerCase() !== sender.toLowerCase()) {
      throw new Error(
        `chain intent ${id} belongs to ${intent.sender ?? 'another signer'} on ${intent.chain}, not ${sender} on ${deps.chain}`,
      );
    }
    return intent;
  }

  async function signCall(call: EvmCall, nonce: bigint, gas: bigint, fees: Fees): Promise<{ rawTransaction: Hex; hash: Hash }> {
    const rawTransaction = await account.signTransaction({
      type: 'eip1559',
      chainId: deps.chainId,
      nonce: Number(nonce),
      to: call.to as Address,
      data: call.data as Hex,
      value: BigInt(call.value),
      gas,
      ...fees,
    });
    return { rawTransaction, hash: keccak256(rawTransaction) };
  }

  /** Signs a prepared intent with the relayer's next nonce; any other intent is returned as it is. */
  async function sign(id: string): Promise<EvmWriteProgress> {
    return sql.begin(async (tx): Promise<EvmWriteProgress> => {
      const intent = await load(tx, id, { lock: true });
      if (intent.status !== 'prepared' || !intent.call) return { intent };
      const { call } = intent;
      const fees = initialFees(await client.estimateFeesPerGas(), deps.maxFeePerGasCap);
      if (!fees) return { intent, deferred: `gas price above the ceiling of ${deps.maxFeePerGasCap} wei` };
      const estimated = await client.estimateGas({
        account: sender,
        to: call.to as Address,
        data: call.data as Hex,
        value: BigInt(call.value),
      });
      const minedNonceCount = BigInt(await client.getTransactionCount({ address: sender, blockTag: 'latest' }));
      const nonce = await takeEvmNonce(tx, { chain: deps.chain, mode: deps.mode, sender }, (stored) => nextNonce(stored, minedNonceCount));
      const signed = await signCall(call, nonce, gasLimitFor(estimated), fees);
      await recordEvmSigned(tx, id, { ...signed, nonce });
      return { intent: await load(tx, id) };
    });
  }

  /** Signs the stuck transaction's call again with its nonce and gas, and fees raised past it. */
  async function replace(id: string): Promise<EvmWriteProgress> {
    return sql.begin(async (tx): Promise<EvmWriteProgress> => {
      const intent = await load(tx, id, { lock: true });
      if (
        (intent.status !== 'signed' && intent.status !== 'broadcast') ||
        !intent.call ||
        !intent.wireTransaction ||
        !intent.signature ||
        intent.nonce === null
      )
        return { intent };
      const stuck = parseTransaction(intent.wireTransaction as Hex);
      if (stuck.maxFeePerGas === undefined || stuck.maxPriorityFeePerGas === undefined || stuck.gas === undefined) {
        throw new Error(`chain intent ${id} holds a transaction without EIP-1559 fees`);
      }
      const fees = replacementFees(
        { maxFeePerGas: stuck.maxFeePerGas, maxPriorityFeePerGas: stuck.maxPriorityFeePerGas },
        await client.estimateFeesPerGas(),
        {
          bumpPercent: deps.feeBumpPercent,
          maxFeePerGasCap: deps.maxFeePerGasCap,
        },
      );
      if (!fees) return { intent, deferred: `a replacement would pass the gas price ceiling of ${deps.maxFeePerGasCap} wei` };
      const signed = await signCall(intent.call, intent.nonce, stuck.gas, fees);
      await recordEvmReplacement(tx, id, { stuckHash: intent.signature, ...signed });
      return { intent: await load(tx, id) };
    });
  }

  async function broadcast(id: string): Promise<ChainIntent> {
    const intent = await load(sql, id);
    if ((intent.status !== 'signed' && intent.status !== 'broadcast') || !intent.wireTransaction || !intent.signature) return intent;
    try {
      await client.request({ method: 'eth_sendRawTransaction', params: [intent.wireTransaction as Hex] });
    } catch (error) {
      if (!alreadyThere(error)) throw error;
    }
    await recordBroadcast(sql, id, intent.signature);
    return load(sql, id);
  }

  async function receipt(provider: PublicClient, hash: string) {
    try {
      return await provider.getTransactionReceipt({ hash: hash as Hash });
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    }
  }

  /** One provider's word on the intent's hashes: the mined count, then every hash's receipt, then the head. */
  async function read(provider: PublicClient, hashes: readonly string[]) {
    // The mined count before the receipts (judgeEvmAttempt says why).
    const minedNonceCount = BigInt(await provider.getTransactionCount({ address: sender, blockTag: 'latest' }));
    let mined: { hash: string; blockNumber: bigint; success: boolean } | undefined;
    for (const hash of hashes) {
      const found = await receipt(provider, hash);
      if (found) {
        mined = { hash, blockNumber: found.blockNumber, success: found.status === 'success' };
        break;
      }
    }
    const head = await provider.getBlockNumber({ cacheTime: 0 });
    return { minedNonceCount, mined, head };
  }

  /**
   * The block that used `nonce` on this provider: the first whose end state counts the sender past it (searched back
   * from `head`, doubling, then halving), and the hash of the sender's transaction with that nonce in it. Undefined
   * when the provider cannot answer for those blocks (a node that keeps no older state, say): not a proof.
   */
  async function consumedIn(provider: PublicClient, nonce: bigint, head: bigint): Promise<NonceTakenRead['consumedIn']> {
    const countAt = async (blockNumber: bigint) => BigInt(await provider.getTransactionCount({ address: sender, blockNumber }));
    try {
      if ((await countAt(head)) <= nonce) return undefined;
      let [before, after] = [head, head];
      for (let step = 1n; ; step *= 2n) {
        before = head - step < 0n ? -1n : head - step;
        if (before < 0n || (await countAt(before)) <= nonce) break;
        after = before;
      }
      while (after - before > 1n) {
        const middle = (before + after) / 2n;
        if ((await countAt(middle)) > nonce) after = middle;
        else before = middle;
      }
      const block = await provider.getBlock({ blockNumber: after, includeTransactions: true });
      const taker = block.transactions.find((tx) => tx.from.toLowerCase() === sender.toLowerCase() && BigInt(tx.nonce) === nonce);
      return { blockNumber: after, hash: taker?.hash };
    } catch {
      return undefined;
    }
  }

  /** What a provider that knows none of the intent's hashes shows of the nonce's use. */
  async function nonceTakenRead(provider: PublicClient, name: string, nonce: bigint, word: Awaited<ReturnType<typeof read>>) {
    const consumed = await consumedIn(provider, nonce, word.head);
    return {
      provider: name,
      minedNonceCount: word.minedNonceCount,
      knowsOurs: word.mined !== undefined,
      head: word.head,
      ...(consumed === undefined ? {} : { consumedIn: consumed }),
    } satisfies NonceTakenRead;
  }

  /** Asks the chain about every hash signed for the intent and records what it proves. */
  async function observe(id: string): Promise<{ intent: ChainIntent; verdict?: EvmAttemptVerdict; held?: string }> {
    const intent = await load(sql, id);
    const { signature, nonce } = intent;
    if (!['signed', 'broadcast', 'confirmed'].includes(intent.status) || signature === null || nonce === null) return { intent };
    // Every hash signed for the intent, whatever nonce it carries, on every pass: any of them may be the one mined.
    const hashes = [signature, ...intent.supersededSignatures];
    const judge = (word: Awaited<ReturnType<typeof read>>) =>
      judgeEvmAttempt({
        nonce,
        ...word,
        requiredConfirmations: deps.requiredConfirmations,
        waitedMs: intent.signedAt ? Date.now() - intent.signedAt.getTime() : 0,
        stuckAfterMs: deps.stuckAfterMs,
      });
    const first = await read(client, hashes);
    let verdict = judge(first);
    let held: string | undefined;
    if (verdict.kind === 'nonce-taken') {
      const reads = [await nonceTakenRead(client, 'the first RPC URL', nonce, first)];
      if (deps.witness) {
        const second = await read(deps.witness, hashes);
        // The witness may know the transaction the first node lacks: then it is followed like any mined one.
        if (second.mined) verdict = judge(second);
        else reads.push(await nonceTakenRead(deps.witness, 'the last RPC URL', nonce, second));
      }
      if (verdict.kind === 'nonce-taken') {
        const proof = judgeNonceTaken({ nonce, hashes, reads });
        if (proof.kind === 'unproven') held = proof.reason;
      }
    }
    if (held !== undefined) {
      // No longer known to be mined (a reorganisation, or a node without it): followed as unmined until proven either way.
      if (intent.status === 'confirmed') await recordEvmUnmined(sql, id);
      return { intent: await load(sql, id), verdict, held };
    }
    switch (verdict.kind) {
      case 'final':
        await recordEvmMined(sql, id, {
          hash: verdict.hash,
          blockNumber: verdict.blockNumber,
          ...(verdict.success ? { status: 'finalized' } : { status: 'failed', error: { reverted: true } }),
        });
        break;
      case 'mined':
        await recordEvmMined(sql, id, { hash: verdict.hash, blockNumber: verdict.blockNumber, status: 'confirmed' });
        break;
      case 'nonce-taken':
        await recordEvmNonceTaken(sql, id, signature);
        break;
      case 'stuck':
      case 'pending':
        if (intent.status === 'confirmed') await recordEvmUnmined(sql, id);
        break;
    }
    return { intent: await load(sql, id), verdict };
  }

  /**
   * One resumable pass: learn what the chain knows, sign when nothing signed can still be mined, replace what is
   * stuck, send the stored bytes while unmined. Call again until the intent is finalized or failed.
   */
  async function advance(id: string): Promise<EvmWriteProgress> {
    const { intent, verdict, held } = await observe(id);
    if (held !== undefined) return { intent, deferred: held };
    if (intent.status === 'prepared') {
      const signed = await sign(id);
      if (signed.deferred !== undefined) return signed;
      return { intent: await broadcast(id) };
    }
    if (verdict?.kind === 'stuck') {
      const replaced = await replace(id);
      return { intent: await broadcast(id), ...(replaced.deferred === undefined ? {} : { deferred: replaced.deferred }) };
    }
    if (verdict?.kind === 'pending') return { intent: await broadcast(id) };
    return { intent };
  }

  return { prepare, sign, replace, broadcast, observe, advance };
}

export type EvmChainWriter = ReturnType<typeof createEvmChainWriter>;
