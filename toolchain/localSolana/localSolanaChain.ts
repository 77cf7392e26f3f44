// A Solana chain in-process: litesvm executes real transactions (System, SPL Token, Associated Token, Memo
// programs) and this class turns its state into slots and blocks as a validator's ledger has them: one block per
// slot unless the slot is skipped, each naming its parent slot and parent blockhash, transactions carrying the
// token balances a node records around them. A transaction may reference the blockhash of any of the last 150
// blocks, as on a cluster (litesvm alone knows only the latest), so a signed transaction can wait, be re-sent,
// and expire; a block is finalized once FINALITY_DEPTH blocks deep. Forks: snapshot() before a slot, reorg() drops
// every block from there and restores the state, so the next blocks form another branch with other blockhashes.
// A transaction may instead name a durable nonce (its first instruction advances a System nonce account whose stored
// nonce is its lifetime token), as on a cluster: such a transaction never expires, only its nonce moves on.
// A program litesvm cannot run (no binary here) can be given a stand-in (installStandIn): transactions invoking it
// are judged and executed by the stand-in instead of litesvm, and recorded, paid and answered like any other.
import { createHash, createPublicKey, verify } from 'node:crypto';
import {
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getBase58Encoder,
  getCompiledTransactionMessageDecoder,
  lamports as toLamports,
  type Address,
  type CompiledTransactionMessage,
  type Transaction,
} from '@solana/kit';
import {
  getNonceDecoder,
  getNonceEncoder,
  identifySystemInstruction,
  NonceState,
  NonceVersion,
  SYSTEM_PROGRAM_ADDRESS,
  SystemInstruction,
} from '@solana-program/system';
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

/** A legacy or version 0 message: the ones that list their instructions. */
export type InstructionsMessage = Extract<CompiledTransactionMessage, { instructions: unknown }>;

/** One instruction's failure as a program reports it: a custom error code, with the logs it wrote. */
export interface StandInFailure {
  index: number;
  code: number;
}

/**
 * Runs, in place of litesvm, the transactions that invoke `program`. `simulate`: judge only, change nothing.
 * Signatures, blockhash and fee are the chain's business, not the stand-in's.
 */
export interface ProgramStandIn {
  readonly program: Address;
  run(svm: LiteSVM, message: InstructionsMessage, simulate: boolean): { failure?: StandInFailure; logs: string[] };
}

type Execution = { err: unknown; logs: string[] };

export type SlotView = { kind: 'block'; block: LocalBlock } | { kind: 'skipped' } | { kind: 'unavailable' } | { kind: 'cleaned-up' };

/** Cluster defaults: 5000 lamports per signature, 400 ms slots, a blockhash valid for 150 blocks. */
const LAMPORTS_PER_SIGNATURE = 5_000;
export const MAX_PROCESSING_AGE = 150;
const SLOT_MS = 400;
const GENESIS_SLOT = 1_000n;
/** A block is finalized once this many blocks deep (itself included), as a cluster roots ~32 slots behind the tip. */
export const FINALITY_DEPTH = 32;

const base58 = getBase58Decoder();
/** DER prefix of an Ed25519 SubjectPublicKeyInfo: the 32 key bytes follow. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Every signer slot holds a valid Ed25519 signature of the message, as litesvm's sigverify requires. */
function signaturesVerify(tx: Transaction): boolean {
  return Object.entries(tx.signatures).every(([signer, signature]) => {
    if (!signature) return false;
    const key = createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, Uint8Array.from(getBase58Encoder().encode(signer))]),
      format: 'der',
      type: 'spki',
    });
    return verify(null, Uint8Array.from(tx.messageBytes), key, Uint8Array.from(signature));
  });
}

/** litesvm's TransactionErrorFieldless, by value: the names a node writes for these errors. */
const FIELDLESS_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
];

/**
 * A node's JSON for a transaction error: `{"InstructionError":[index,{"Custom":code}]}` for an execution failure,
 * the variant's name for an error without fields (those happen before execution: no block ever holds them).
 */
function wireError(error: unknown): unknown {
  if (typeof error === 'number') return FIELDLESS_ERRORS[error] ?? `TransactionError(${error})`;
  if (typeof error !== 'object' || error === null || !('index' in error) || !('err' in error) || typeof error.err !== 'function')
    return undefined;
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
  private readonly slotOf = new Map<string, bigint>();
  /** Set by reorg(): the new branch's first block gets another hash than the block it replaces. */
  private forked = false;
  private readonly standIns = new Map<Address, ProgramStandIn>();

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

  /**
   * Initialized System nonce accounts at `addresses` under `authority`, their rent from the faucet, as an operator
   * who created them earlier would leave them.
   */
  installNonceAccounts(addresses: Address[], authority: Address): void {
    for (const address of addresses) {
      const data = Uint8Array.from(
        getNonceEncoder().encode({
          version: NonceVersion.Current,
          state: NonceState.Initialized,
          authority,
          blockhash: this.parent.blockhash as Address,
          lamportsPerSignature: LAMPORTS_PER_SIGNATURE,
        }),
      );
      this.svm.setAccount({
        address,
        programAddress: SYSTEM_PROGRAM_ADDRESS,
        data,
        executable: false,
        lamports: toLamports(this.svm.minimumBalanceForRentExemption(BigInt(data.length))),
        space: BigInt(data.length),
      });
    }
  }

  installStandIn(standIn: ProgramStandIn): void {
    this.standIns.set(standIn.program, standIn);
  }

  /** The stand-in of the first program `message` invokes that has one. */
  private standInFor(message: CompiledTransactionMessage): ProgramStandIn | undefined {
    if (!('instructions' in message)) return undefined;
    for (const instruction of message.instructions) {
      const standIn = this.standIns.get(message.staticAccounts[instruction.programAddressIndex] as Address);
      if (standIn) return standIn;
    }
    return undefined;
  }

  /** A stand-in's run, as litesvm would report it: a signature that does not verify is refused before execution. */
  private runStandIn(standIn: ProgramStandIn, tx: Transaction, message: InstructionsMessage, simulate: boolean): Execution {
    if (!signaturesVerify(tx)) return { err: 'SignatureFailure', logs: [] };
    const { failure, logs } = standIn.run(this.svm, message, simulate);
    return { err: failure ? { InstructionError: [failure.index, { Custom: failure.code }] } : null, logs };
  }

  /** The newest slot the cluster has decided (produced or skipped): what getSlot answers. */
  tip(): bigint {
    return this.current - 1n;
  }

  /** The slot the next transaction lands in. */
  get currentSlot(): bigint {
    return this.current;
  }

  /** The newest block: its blockhash is what getLatestBlockhash answers. */
  get latestBlock(): LocalBlock {
    return this.parent;
  }

  /** The newest block FINALITY_DEPTH blocks deep: what `finalized` reads. */
  get finalizedBlock(): LocalBlock {
    const height = Math.max(0, this.parent.blockHeight - (FINALITY_DEPTH - 1));
    let block = this.parent;
    while (block.blockHeight > height) block = this.blocks.get(block.parentSlot) as LocalBlock;
    return block;
  }

  /** The block at `slot` on this branch, if one was produced there. */
  blockAt(slot: bigint): LocalBlock | undefined {
    return this.blocks.get(slot);
  }

  /** Where a sent transaction is: in the slot being filled, in a block of this branch, or nowhere. */
  findTransaction(signature: string): { slot: bigint; record: TransactionRecord; sealed: boolean } | undefined {
    const slot = this.slotOf.get(signature);
    if (slot === undefined) return undefined;
    const records = slot === this.current ? this.pending : this.blocks.get(slot)?.transactions;
    const record = records?.find((tx) => tx.signatures[0] === signature);
    return record ? { slot, record, sealed: slot !== this.current } : undefined;
  }

  /** A blockhash is usable while its block is one of the newest MAX_PROCESSING_AGE + 1 of this branch. */
  private isRecentBlockhash(blockhash: string): boolean {
    let block: LocalBlock | undefined = this.parent;
    for (let age = 0; block && age <= MAX_PROCESSING_AGE; age++) {
      if (block.blockhash === blockhash) return true;
      block = block.parentSlot === block.slot ? undefined : this.blocks.get(block.parentSlot);
    }
    return false;
  }

  /**
   * The nonce account a durable-nonce transaction advances, when `lifetimeToken` is the nonce it stores: its first
   * instruction is AdvanceNonceAccount.
   */
  private currentDurableNonceAccount(message: CompiledTransactionMessage, lifetimeToken: string): Address | undefined {
    if (!('instructions' in message)) return undefined;
    const first = message.instructions[0];
    if (!first?.data || message.staticAccounts[first.programAddressIndex] !== SYSTEM_PROGRAM_ADDRESS) return undefined;
    if (identifySystemInstruction(first.data) !== SystemInstruction.AdvanceNonceAccount) return undefined;
    const nonceAccount = message.staticAccounts[first.accountIndices?.[0] ?? -1];
    const account = nonceAccount === undefined ? undefined : this.svm.getAccount(nonceAccount);
    if (!account?.exists || account.programAddress !== SYSTEM_PROGRAM_ADDRESS) return undefined;
    const nonce = getNonceDecoder().decode(account.data);
    return nonce.state === NonceState.Initialized && nonce.blockhash === lifetimeToken ? nonceAccount : undefined;
  }

  /**
   * A durable-nonce transaction that fails still moves its nonce on, as a bank does (litesvm rolls the whole
   * transaction back): the next nonce derives from the current blockhash.
   */
  private advanceNonceOfFailed(address: Address): void {
    const account = this.svm.getAccount(address);
    if (!account.exists) return;
    const next = createHash('sha256')
      .update(Buffer.concat([Buffer.from('DURABLE_NONCE'), Uint8Array.from(getBase58Encoder().encode(this.svm.latestBlockhash()))]))
      .digest();
    const nonce = getNonceDecoder().decode(account.data);
    const data = Uint8Array.from(getNonceEncoder().encode({ ...nonce, blockhash: base58.decode(next) as Address }));
    this.svm.setAccount({ ...account, data });
  }

  view(slot: bigint): SlotView {
    if (slot < GENESIS_SLOT) return { kind: 'cleaned-up' };
    if (slot > this.tip()) return { kind: 'unavailable' };
    const block = this.blocks.get(slot);
    return block ? { kind: 'block', block } : { kind: 'skipped' };
  }

  /**
   * A node's preflight: why `tx` would not execute now, as the node's JSON error (`err`) with the program logs, or
   * undefined if it would.
   */
  preflight(tx: Transaction): { err: unknown; logs: string[] } | undefined {
    const refused = this.refusal(tx);
    if (refused) return { err: refused, logs: [] };
    const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
    const standIn = this.standInFor(message);
    if (standIn && 'instructions' in message) {
      const run = this.runStandIn(standIn, tx, message, true);
      return run.err === null ? undefined : run;
    }
    const result = this.svm.simulateTransaction(tx);
    if (!(result instanceof FailedTransactionMetadata)) return undefined;
    return { err: wireError(result.err()) ?? String(result.err()), logs: result.meta().logs() };
  }

  /**
   * Why a node refuses `tx` before executing it: a blockhash unknown or past its 150 blocks (and no current durable
   * nonce), or a signature already on this branch.
   */
  private refusal(tx: Transaction): 'BlockhashNotFound' | 'AlreadyProcessed' | undefined {
    const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
    if (!this.isRecentBlockhash(message.lifetimeToken) && !this.currentDurableNonceAccount(message, message.lifetimeToken))
      return 'BlockhashNotFound';
    const feePayer = message.staticAccounts[0];
    const signature = feePayer === undefined ? undefined : tx.signatures[feePayer];
    return signature && this.findTransaction(base58.decode(signature)) ? 'AlreadyProcessed' : undefined;
  }

  /** Executes `tx` in the current slot; a failed one is recorded as a real node records it (fee paid, error). */
  send(tx: Transaction, options: { allowFailure?: boolean } = {}): { signature: string; slot: bigint; failed: boolean } {
    // A node drops such a transaction before executing it: no fee, no block.
    const refused = this.refusal(tx);
    if (refused) throw new Error(`transaction failed: ${refused}`);
    const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
    const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header;
    const keys: Address[] = [...message.staticAccounts];
    const accountKeys = keys.map((pubkey, index) => ({
      pubkey,
      signer: index < numSignerAccounts,
      writable:
        index < numSignerAccounts
          ? index < numSignerAccounts - numReadonlySignerAccounts
          : index < keys.length - numReadonlyNonSignerAccounts,
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
    const fee = LAMPORTS_PER_SIGNATURE * numSignerAccounts;
    const nonceAccount = this.isRecentBlockhash(message.lifetimeToken)
      ? undefined
      : this.currentDurableNonceAccount(message, message.lifetimeToken);
    const { err, logs } = this.execute(tx, message);
    const failed = err !== null;
    // Only a transaction that failed while executing (an instruction error) pays its fee and lands in a block.
    if (failed && (!options.allowFailure || typeof err !== 'object'))
      throw new Error(`transaction failed: ${JSON.stringify(err)}\n${logs.join('\n')}`);
    if (failed && this.standInFor(message)) this.chargeFee(keys[0] as Address, fee);
    if (failed && nonceAccount) this.advanceNonceOfFailed(nonceAccount);
    this.slotOf.set(signatures[0] as string, this.current);
    this.pending.push({
      signatures,
      wire: getBase64EncodedWireTransaction(tx),
      accountKeys,
      version: message.version === 'legacy' ? 'legacy' : 0,
      meta: {
        err,
        fee,
        preBalances,
        postBalances: lamports(),
        preTokenBalances,
        postTokenBalances: tokenBalances(this.svm, keys),
        status: err === null ? { Ok: null } : { Err: err },
      },
    });
    return { signature: signatures[0] as string, slot: this.current, failed };
  }

  /** litesvm's execution, or the stand-in's (whose fee the chain takes, as litesvm takes its own). */
  private execute(tx: Transaction, message: CompiledTransactionMessage): Execution {
    const standIn = this.standInFor(message);
    if (standIn && 'instructions' in message) {
      const run = this.runStandIn(standIn, tx, message, false);
      if (run.err === null) this.chargeFee(message.staticAccounts[0] as Address, LAMPORTS_PER_SIGNATURE * message.header.numSignerAccounts);
      return run;
    }
    const result = this.svm.sendTransaction(tx);
    if (!(result instanceof FailedTransactionMetadata)) return { err: null, logs: result.logs() };
    return { err: wireError(result.err()) ?? String(result.err()), logs: result.meta().logs() };
  }

  private chargeFee(payer: Address, fee: number): void {
    const account = this.svm.getAccount(payer);
    if (account.exists) this.svm.setAccount({ ...account, lamports: toLamports(account.lamports - BigInt(fee)) });
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
    for (const [signature, slot] of this.slotOf) if (slot >= point.slot) this.slotOf.delete(signature);
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
