// A Solana chain in-process: litesvm executes real transactions (System, SPL Token, Associated Token, Memo
// programs) and this class turns its state into slots and blocks as a validator's ledger has them: one block per
// slot unless the slot is skipped, each naming its parent slot and parent blockhash, transactions carrying the
// token balances a node records around them. Forks: snapshot() before a slot, reorg() drops every block from
// there and restores the state, so the next blocks form another branch with other blockhashes.
// A transaction's blockhash is honoured as a cluster does: for 150 blocks after the block that produced it (litesvm
// alone accepts only the newest one), so a signed transaction can wait, be re-sent, and expire.
import {
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  type Address,
  type Transaction,
} from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { tokenBalances, type WireTokenBalance } from './tokenBalances';

export interface WireAccountKey {
  pubkey: string;
  signer: boolean;
  writable: boolean;
  source: 'transaction';
}

export interface TransactionRecord {
  signatures: string[];
  /** The wire transaction, base64, as getTransaction's base64 encoding returns it. */
  wire: string;
  accountKeys: WireAccountKey[];
  version: 0 | 'legacy';
  meta: {
    err: unknown;
    fee: number;
    preBalances: number[];
    postBalances: number[];
    preTokenBalances: WireTokenBalance[];
    postTokenBalances: WireTokenBalance[];
    status: { Ok: null } | { Err: unknown };
  };
}

export interface LocalBlock {
  slot: bigint;
  blockhash: string;
  previousBlockhash: string;
  parentSlot: bigint;
  blockHeight: number;
  /** Unix seconds. */
  blockTime: number;
  transactions: TransactionRecord[];
}

export interface ForkPoint {
  readonly slot: bigint;
  readonly state: Uint8Array;
  readonly parent: LocalBlock;
}

export type SlotView = { kind: 'block'; block: LocalBlock } | { kind: 'skipped' } | { kind: 'unavailable' } | { kind: 'cleaned-up' };

/** Where a sent transaction is: in a produced block, or waiting in the slot being filled. */
export interface LandedTransaction {
  record: TransactionRecord;
  slot: bigint;
  /** undefined while the slot is still being filled. */
  block: LocalBlock | undefined;
}

/** A node's refusal before execution (what preflight reports), in the wire shape of `err`. */
export type Submission = { accepted: true; signature: string } | { accepted: false; signature: string; err: unknown };

/** Cluster defaults: 5000 lamports per signature, 400 ms slots, a blockhash valid for 150 blocks. */
const LAMPORTS_PER_SIGNATURE = 5_000;
const SLOT_MS = 400;
const GENESIS_SLOT = 1_000n;
export const MAX_PROCESSING_AGE = 150;
/** Blocks on top of a block before it is rooted: the cluster finalizes ~32 slots behind the tip. */
export const FINALITY_DEPTH = 32;

const base58 = getBase58Decoder();

/** litesvm's TransactionErrorFieldless, by value: the names a node writes for these errors. */
const FIELDLESS_ERRORS = [
  'AccountInUse', 'AccountLoadedTwice', 'AccountNotFound', 'ProgramAccountNotFound', 'InsufficientFundsForFee', 'InvalidAccountForFee',
  'AlreadyProcessed', 'BlockhashNotFound', 'CallChainTooDeep', 'MissingSignatureForFee', 'InvalidAccountIndex', 'SignatureFailure',
  'InvalidProgramForExecution', 'SanitizeFailure', 'ClusterMaintenance', 'AccountBorrowOutstanding',
];

/**
 * A node's JSON for a transaction error: `{"InstructionError":[index,{"Custom":code}]}` for an execution failure,
 * the variant's name for an error without fields (those happen before execution: no block ever holds them).
 */
function wireError(error: unknown): unknown {
  if (typeof error === 'number') return FIELDLESS_ERRORS[error] ?? `TransactionError(${error})`;
  if (typeof error !== 'object' || error === null || !('index' in error) || !('err' in error) || typeof error.err !== 'function') return undefined;
  const inner: unknown = error.err();
  const detail = typeof inner === 'object' && inner !== null && 'code' in inner ? { Custom: inner.code } : String(inner);
  return { InstructionError: [error.index, detail] };
}

export class LocalSolanaChain {
  svm: LiteSVM;
  readonly genesisHash: string;
  private readonly blocks = new Map<bigint, LocalBlock>();
  private readonly startTime = Math.floor(Date.now() / 1000);
  /** The slot being filled: transactions sent now land in it. */
  private current: bigint;
  private parent: LocalBlock;
  private pending: TransactionRecord[] = [];
  /** Set by reorg(): the new branch's first block gets another hash than the block it replaces. */
  private forked = false;

  constructor() {
    this.svm = new LiteSVM().withBlockhashCheck(false);
    this.svm.warpToSlot(GENESIS_SLOT);
    this.genesisHash = this.svm.latestBlockhash();
    const genesis: LocalBlock = {
      slot: GENESIS_SLOT,
      blockhash: this.genesisHash,
      previousBlockhash: '11111111111111111111111111111111',
      parentSlot: GENESIS_SLOT,
      blockHeight: 0,
      blockTime: this.startTime,
      transactions: [],
    };
    this.blocks.set(GENESIS_SLOT, genesis);
    this.parent = genesis;
    this.current = GENESIS_SLOT + 1n;
    this.svm.warpToSlot(this.current);
  }

  /** The newest slot the cluster has decided (produced or skipped): what getSlot answers. */
  tip(): bigint {
    return this.current - 1n;
  }

  /** The slot the next transaction lands in. */
  get currentSlot(): bigint {
    return this.current;
  }

  view(slot: bigint): SlotView {
    if (slot < GENESIS_SLOT) return { kind: 'cleaned-up' };
    if (slot > this.tip()) return { kind: 'unavailable' };
    const block = this.blocks.get(slot);
    return block ? { kind: 'block', block } : { kind: 'skipped' };
  }

  /** The newest produced block: what `confirmed` reads. */
  tipBlock(): LocalBlock {
    return this.parent;
  }

  /** The newest block with FINALITY_DEPTH blocks on top of it: what `finalized` reads. */
  finalizedBlock(): LocalBlock {
    const height = Math.max(0, this.parent.blockHeight - FINALITY_DEPTH);
    for (let block = this.parent; ; block = this.blocks.get(block.parentSlot) as LocalBlock) if (block.blockHeight <= height) return block;
  }

  /** The transaction with this (first) signature on the current branch, in a block or in the slot being filled. */
  find(signature: string): LandedTransaction | undefined {
    const pending = this.pending.find((tx) => tx.signatures[0] === signature);
    if (pending) return { record: pending, slot: this.current, block: undefined };
    for (const block of this.blocks.values()) {
      const record = block.transactions.find((tx) => tx.signatures[0] === signature);
      if (record) return { record, slot: block.slot, block };
    }
    return undefined;
  }

  /**
   * What a node does with a sent transaction: refuses it before execution when its blockhash is unknown or past
   * its 150 blocks, when it was processed already, or (with preflight) when simulation fails; otherwise executes it
   * in the current slot, where a failing one still lands with its fee paid.
   */
  submit(tx: Transaction, options: { preflight: boolean }): Submission {
    const signature = base58.decode(Object.values(tx.signatures)[0] ?? new Uint8Array(64));
    const refused = this.refusal(tx, signature);
    if (refused) return { accepted: false, signature, err: refused };
    if (options.preflight) {
      const simulated = this.svm.simulateTransaction(tx);
      if (simulated instanceof FailedTransactionMetadata) return { accepted: false, signature, err: wireError(simulated.err()) };
    }
    const sent = this.execute(tx);
    return sent.landed ? { accepted: true, signature } : { accepted: false, signature, err: sent.err };
  }

  /** Executes `tx` in the current slot; a failed one is recorded as a real node records it (fee paid, error). */
  send(tx: Transaction, options: { allowFailure?: boolean } = {}): { signature: string; slot: bigint; failed: boolean } {
    const refused = this.refusal(tx, base58.decode(Object.values(tx.signatures)[0] ?? new Uint8Array(64)));
    if (refused) throw new Error(`transaction refused: ${refused}`);
    const sent = this.execute(tx);
    // Only a transaction that failed while executing pays its fee and lands in a block; the rest never do.
    if (sent.failed && (!options.allowFailure || !sent.landed)) throw new Error(`transaction failed: ${sent.detail}`);
    return { signature: sent.signature, slot: this.current, failed: sent.failed };
  }

  private refusal(tx: Transaction, signature: string): 'BlockhashNotFound' | 'AlreadyProcessed' | undefined {
    const { lifetimeToken } = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
    const origin = [...this.blocks.values()].find((block) => block.blockhash === lifetimeToken);
    if (!origin || this.parent.blockHeight + 1 > origin.blockHeight + MAX_PROCESSING_AGE) return 'BlockhashNotFound';
    return this.find(signature) ? 'AlreadyProcessed' : undefined;
  }

  private execute(tx: Transaction): { signature: string; failed: boolean; landed: boolean; err: unknown; detail: string } {
    const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
    const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header;
    const keys: Address[] = [...message.staticAccounts];
    const accountKeys = keys.map((pubkey, index) => ({
      pubkey,
      signer: index < numSignerAccounts,
      writable: index < numSignerAccounts ? index < numSignerAccounts - numReadonlySignerAccounts : index < keys.length - numReadonlyNonSignerAccounts,
      source: 'transaction' as const,
    }));
    const signatures = keys.slice(0, numSignerAccounts).map((signer) => {
      const bytes = tx.signatures[signer];
      if (!bytes) throw new Error(`transaction is not signed by ${signer}`);
      return base58.decode(bytes);
    });
    const lamports = () => keys.map((key) => Number(this.svm.getBalance(key) ?? 0n));
    const preBalances = lamports();
    const preTokenBalances = tokenBalances(this.svm, keys);
    const result = this.svm.sendTransaction(tx);
    const failed = result instanceof FailedTransactionMetadata;
    const err = failed ? wireError(result.err()) : null;
    const signature = signatures[0] as string;
    const detail = failed ? `${String(result.err())}\n${result.meta().prettyLogs()}` : '';
    // Only a transaction that failed while executing (an instruction error) pays its fee and lands in a block.
    if (failed && (typeof err !== 'object' || err === null)) return { signature, failed, landed: false, err: err ?? String(result.err()), detail };
    this.pending.push({
      signatures,
      wire: getBase64EncodedWireTransaction(tx),
      accountKeys,
      version: message.version === 'legacy' ? 'legacy' : 0,
      meta: {
        err,
        fee: LAMPORTS_PER_SIGNATURE * numSignerAccounts,
        preBalances,
        postBalances: lamports(),
        preTokenBalances,
        postTokenBalances: tokenBalances(this.svm, keys),
        status: err === null ? { Ok: null } : { Err: err },
      },
    });
    return { signature, failed, landed: true, err, detail };
  }

  /** Seals the current slot as a block (with whatever was sent into it), then `count − 1` empty ones. */
  produce(count = 1): LocalBlock[] {
    const produced: LocalBlock[] = [];
    for (let i = 0; i < count; i++) {
      // The new blockhash is the one later transactions reference; a fork's first block hashes differently.
      this.svm.expireBlockhash();
      if (this.forked) this.svm.expireBlockhash();
      this.forked = false;
      const block: LocalBlock = {
        slot: this.current,
        blockhash: this.svm.latestBlockhash(),
        previousBlockhash: this.parent.blockhash,
        parentSlot: this.parent.slot,
        blockHeight: this.parent.blockHeight + 1,
        blockTime: this.startTime + Math.floor(Number((this.current - GENESIS_SLOT) * BigInt(SLOT_MS)) / 1000),
        transactions: this.pending,
      };
      this.blocks.set(block.slot, block);
      this.pending = [];
      this.parent = block;
      produced.push(block);
      this.advance();
    }
    return produced;
  }

  /** The current slot's leader produced nothing: the slot is skipped (transactions sent wait for the next block). */
  skip(count = 1): void {
    for (let i = 0; i < count; i++) this.advance();
  }

  /** The state before the current slot, to fork from. */
  snapshot(): ForkPoint {
    if (this.pending.length > 0) throw new Error('produce the pending transactions before taking a snapshot');
    return { slot: this.current, state: this.svm.toBytes(), parent: this.parent };
  }

  /**
   * Abandons every block from `point.slot` on and restores the state of that moment. 'skip': the abandoned slots
   * read as skipped and the new branch continues at the current slot (the common Solana fork). 'replace': the
   * tip falls back and the same slots are produced again, with other blockhashes.
   */
  reorg(point: ForkPoint, mode: 'skip' | 'replace'): void {
    for (const slot of [...this.blocks.keys()]) if (slot >= point.slot) this.blocks.delete(slot);
    this.svm = LiteSVM.fromBytes(point.state).withBlockhashCheck(false);
    this.parent = point.parent;
    this.pending = [];
    this.forked = true;
    if (mode === 'replace') this.current = point.slot;
    this.svm.warpToSlot(this.current);
  }

  private advance(): void {
    this.current += 1n;
    this.svm.warpToSlot(this.current);
  }
}
