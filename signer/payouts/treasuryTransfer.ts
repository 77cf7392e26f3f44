// A USDC transfer out of the Solana treasury, written ahead as a chain intent: a payout to a merchant
// (treasuryPayout.ts, docs/settlement.md#payouts) or a refund to a customer (signer/refunds/refundPayment.ts,
// docs/refunds.md#payment). Both are judged against the treasury's liquidity, signed against one of its durable
// nonces and carried by the chain writer; what each writes before and after is its own.
import { ApplicationFailure } from '@temporalio/activity';
import { getAddMemoInstruction } from '@solana-program/memo';
import { getCreateAssociatedTokenIdempotentInstruction, getTokenDecoder, getTransferCheckedInstruction } from '@solana-program/token';
import type { Address, KeyPairSigner } from '@solana/kit';
import type { Queryable } from '../../db/client';
import { lockUntilCommit } from '../../db/repositories/locks';
import { treasuryTransfersInFlight } from '../../db/repositories/payouts';
import { associatedUsdcAccount } from '../../domain/addresses/solanaTokenAccount';
import { judgeLiquidity, type LiquidityVerdict } from '../../domain/settlement/treasuryLiquidity';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import type { Mode } from '../../domain/wire/session';
import { rpcDeadline } from '../../activities/http/rpcDeadline';
import {
  createSolanaChainWriter,
  type SignIntent,
  type SolanaChainWriter,
  type SolanaChainWriterDeps,
  type WriteProgress,
} from '../chainWrites/solanaChainWriter';
import { provisionPayoutNonces, takePayoutNonce } from './payoutNonces';
import { signTreasuryNonceTransaction, USDC_DECIMALS, type DurableNonce } from './payoutTransaction';

export interface TreasuryTransferDeps extends SolanaChainWriterDeps {
  /** Fee payer and USDC authority: held by the signer worker alone. */
  treasury: KeyPairSigner;
  /** The USDC mint of the network this treasury pays on. */
  usdcMint: Address;
  /**
   * Whether the transaction carries the pay_… or ref_… memo; default on, as every cluster runs the SPL Memo program.
   * Off only for the local chain: litesvm 1.5 has an account at the Memo program's address whose execution fails with
   * InvalidProgramForExecution, and @solana-program/memo ships no program binary to load in its place.
   */
  memo?: boolean;
}

/** A transfer of USDC from the treasury to a wallet's associated account, under its chain intent. */
export interface TreasuryTransfer {
  intentId: string;
  wallet: Address;
  amount: bigint;
  /** The pay_… or ref_… id the memo carries, so a reconciler can match the transfer from chain data alone. */
  reference: string;
}

/** A 165-byte SPL token account, and a wallet without data: the two rent-exempt minimums a transfer needs. */
const TOKEN_ACCOUNT_SIZE = 165n;

/**
 * Creates the wallet's USDC account if it is missing (rent paid by the treasury), transferChecked the amount from the
 * treasury's USDC account, and the memo; signed against the treasury's durable nonce, so it lands at most once, ever.
 */
export async function signTreasuryTransfer(
  deps: Pick<TreasuryTransferDeps, 'treasury' | 'usdcMint' | 'memo'>,
  transfer: Omit<TreasuryTransfer, 'intentId'>,
  nonce: DurableNonce,
) {
  const { treasury, usdcMint: mint } = deps;
  const source = await associatedUsdcAccount(treasury.address, mint);
  const destination = await associatedUsdcAccount(transfer.wallet, mint);
  return signTreasuryNonceTransaction(treasury, nonce, [
    getCreateAssociatedTokenIdempotentInstruction({ payer: treasury, ata: destination, owner: transfer.wallet, mint }),
    getTransferCheckedInstruction({ source, mint, destination, authority: treasury, amount: transfer.amount, decimals: USDC_DECIMALS }),
    ...((deps.memo ?? true) ? [getAddMemoInstruction({ memo: transfer.reference })] : []),
  ]);
}

/**
 * Reads the treasury's USDC and SOL and what this transfer and the payouts and refunds in flight need of them. Call in
 * the transaction that signs: it holds the treasury's lock until then.
 */
export async function treasuryLiquidity(
  deps: Pick<TreasuryTransferDeps, 'rpc' | 'rpcTimeoutMs' | 'treasury' | 'usdcMint'>,
  transfer: Pick<TreasuryTransfer, 'intentId' | 'wallet' | 'amount'>,
  tx: Queryable,
): Promise<LiquidityVerdict> {
  // One signer at a time per treasury: two transfers must not both count the same balance.
  await lockUntilCommit(tx, `treasury:${deps.treasury.address}`);
  const inFlight = await treasuryTransfersInFlight(tx, deps.treasury.address, transfer.intentId);
  const [treasuryAccount, walletAccount] = await Promise.all([
    associatedUsdcAccount(deps.treasury.address, deps.usdcMint),
    associatedUsdcAccount(transfer.wallet, deps.usdcMint),
  ]);
  const read = { encoding: 'base64', commitment: 'confirmed' } as const;
  const [treasuryUsdc, walletUsdc, lamports, tokenAccountRent, walletRent] = await Promise.all([
    deps.rpc.getAccountInfo(treasuryAccount, read).send(rpcDeadline(deps.rpcTimeoutMs)),
    deps.rpc.getAccountInfo(walletAccount, read).send(rpcDeadline(deps.rpcTimeoutMs)),
    deps.rpc.getBalance(deps.treasury.address, { commitment: 'confirmed' }).send(rpcDeadline(deps.rpcTimeoutMs)),
    deps.rpc.getMinimumBalanceForRentExemption(TOKEN_ACCOUNT_SIZE).send(rpcDeadline(deps.rpcTimeoutMs)),
    deps.rpc.getMinimumBalanceForRentExemption(0n).send(rpcDeadline(deps.rpcTimeoutMs)),
  ]);
  const usdcBaseUnits = treasuryUsdc.value ? getTokenDecoder().decode(Buffer.from(treasuryUsdc.value.data[0], 'base64')).amount : 0n;
  return judgeLiquidity(
    { usdcBaseUnits, lamports: lamports.value },
    {
      amount: transfer.amount,
      reservedUsdc: inFlight.amount,
      payoutsInFlight: inFlight.count,
      merchantAccountExists: walletUsdc.value !== null,
      tokenAccountRent,
      walletRent,
    },
  );
}

/** Hears, during a pass, by how much the treasury cannot pay, or that none of its nonce accounts is free. */
export interface TransferWaits {
  onShort?: (verdict: Extract<LiquidityVerdict, { kind: 'short' }>) => void;
  onNoNonce?: () => void;
}

/** Signs the transfer against a free durable nonce of the treasury, only when the treasury can pay it now. */
export async function signWhenPayable(
  deps: TreasuryTransferDeps,
  transfer: TreasuryTransfer,
  tx: Queryable,
  waits: TransferWaits = {},
): ReturnType<SignIntent> {
  const verdict = await treasuryLiquidity(deps, transfer, tx);
  if (verdict.kind === 'short') {
    waits.onShort?.(verdict);
    return {
      kind: 'deferred',
      reason: `treasury short by ${verdict.usdcShortfall} USDC base units and ${verdict.lamportsShortfall} lamports`,
    };
  }
  const nonce = await takePayoutNonce(deps, tx, transfer.intentId);
  if (!nonce) {
    waits.onNoNonce?.();
    return { kind: 'deferred', reason: `no durable nonce account of treasury ${deps.treasury.address} is free` };
  }
  const transaction = await signTreasuryTransfer(deps, transfer, nonce);
  return { kind: 'signed', transaction, durableNonce: nonce };
}

export interface TransferPass {
  progress: WriteProgress;
  /** The treasury's shortfall when the pass was deferred for liquidity. */
  short: LiquidityVerdict | undefined;
}

/**
 * One pass of the chain writer over the transfer's intent. Only a transfer the treasury can pay sets up the treasury's
 * nonce accounts: a short one waits for liquidity first. Throws a retryable PayoutNonceWait while none is free.
 */
export async function advanceTreasuryTransfer(
  deps: TreasuryTransferDeps,
  writer: SolanaChainWriter,
  mode: Mode,
  intentId: string,
  signer: (waits: Required<TransferWaits>) => SignIntent,
  what: string,
): Promise<TransferPass> {
  let short: LiquidityVerdict | undefined;
  let noNonce = false;
  const pass = () => {
    noNonce = false;
    return writer.advance(
      intentId,
      signer({
        onShort: (verdict) => (short = verdict),
        onNoNonce: () => (noNonce = true),
      }),
    );
  };
  let progress = await pass();
  if (noNonce) {
    await provisionPayoutNonces(deps, mode);
    progress = await pass();
  }
  if (noNonce)
    throw ApplicationFailure.retryable(
      `${what} waits for a durable nonce account of treasury ${deps.treasury.address}: each is held by a payout or refund in flight, or still being created`,
      WorkflowFailure.PayoutNonceWait,
    );
  return { progress, short };
}

/**
 * Follows a transfer written for a treasury whose key this signer does not hold (rotated, or not configured): re-sends
 * its stored bytes and reads their fate, which needs no key, so a transfer under way is finished, never stranded. It
 * never signs: one signed by another treasury could pay twice. `stranded` says why one never signed must wait.
 */
export async function followTreasuryTransfer(deps: SolanaChainWriterDeps, intentId: string, stranded: string): Promise<WriteProgress> {
  const writer = createSolanaChainWriter(deps);
  const { intent, verdict } = await writer.observe(intentId);
  if (intent.status === 'prepared') throw ApplicationFailure.retryable(stranded, WorkflowFailure.PayoutKeyMissing);
  return { intent: verdict?.kind === 'unseen' ? await writer.broadcast(intentId) : intent };
}

/** The outcome of a pass the chain writer left prepared: it may only have been deferred for the treasury's liquidity. */
export function awaitingLiquidity(pass: TransferPass, what: string) {
  if (pass.progress.deferred === undefined || pass.short?.kind !== 'short') throw new Error(`${what} was neither signed nor deferred`);
  return {
    status: 'awaiting_liquidity',
    usdcShortfall: pass.short.usdcShortfall.toString(),
    lamportsShortfall: pass.short.lamportsShortfall.toString(),
  } as const;
}
