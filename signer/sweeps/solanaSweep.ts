// Sweeps Solana deposit accounts into the treasury (docs/settlement.md#deposit-sweeps), on the signer: it alone holds
// the deposit seed and the treasury key. A plan writes each batch as a sweep row and chain intent before anything is
// signed; each advance is one resumable pass of the chain writer, and a landed sweep is recorded, with its ledger
// postings, from the transaction's balance deltas. The main worker has no Solana endpoint: the chain is read here, as
// payouts do.
import { getTokenDecoder } from '@solana-program/token';
import { createKeyPairSignerFromBytes, type Address, type Signature } from '@solana/kit';
import { postLedger } from '../../db/repositories/ledger';
import { lockUntilCommit } from '../../db/repositories/locks';
import {
  findSweep,
  insertSweeps,
  setSweepEmpty,
  setSweepFinalized,
  setSweepLanded,
  setSweepSubmitted,
  sweepDue,
  sweepsToFinish,
  type Sweep,
} from '../../db/repositories/solanaSweeps';
import { sweepLanded, type SweepDeltas } from '../../domain/ledger/ledger';
import type { Mode } from '../../domain/wire/session';
import { planSweepBatches, SWEEP_BATCH_LIMIT, sweepAmount } from '../../domain/sweeps/solanaSweepBatches';
import { createSolanaChainWriter, type SignIntent, type WriteProgress } from '../chainWrites/solanaChainWriter';
import { rpcDeadline } from '../../activities/http/rpcDeadline';
import { deriveSolanaKeyPairBytes } from '../../domain/addresses/hdDerivation';
import { associatedUsdcAccount } from '../../domain/addresses/solanaTokenAccount';
import type { TreasuryPayoutDeps } from '../payouts/treasuryPayout';
import { signSweepTransaction, type SweptAccount } from './sweepTransaction';

export interface SolanaSweepDeps extends TreasuryPayoutDeps {
  /** The mode's deposit seed: the deposit keys sign as their accounts' token authority. */
  depositSeed: Uint8Array;
  mode: Mode;
}

export type SweepOutcome =
  | { status: 'submitted'; signature: string }
  | { status: 'confirmed' | 'finalized'; signature: string; usdcSwept: string }
  /** Landed and failed (a deposit arrived after signing, say): the fee is spent, the accounts wait for the next sweep. */
  | { status: 'failed'; signature: string }
  /** Every account was empty when it came to signing: nothing was signed. */
  | { status: 'empty' };

/** Deposit addresses one plan reads from the chain: a bound on the plan's time, the rest wait for the next run. */
const PLAN_ACCOUNTS = SWEEP_BATCH_LIMIT * 50;

const NOTHING_TO_SWEEP = 'every account of the sweep is empty';

async function usdcBalance(deps: SolanaSweepDeps, tokenAccount: Address): Promise<bigint | undefined> {
  const { value } = await deps.rpc
    .getAccountInfo(tokenAccount, { encoding: 'base64', commitment: 'confirmed' })
    .send(rpcDeadline(deps.rpcTimeoutMs));
  return value ? getTokenDecoder().decode(Buffer.from(value.data[0], 'base64')).amount : undefined;
}

/**
 * The SignIntent of a sweep: takes from each account what it holds now, up to what the plan found the ledger holds
 * for it, and closes the accounts that empties; accounts emptied or closed since the plan are left out. The
 * treasury's USDC account must exist (it does once the treasury has held USDC): the sweep does not pay to create it.
 */
export function sweepSigner(deps: SolanaSweepDeps, sweep: Sweep): SignIntent {
  return async (lifetime) => {
    const accounts: SweptAccount[] = [];
    for (const account of sweep.accounts) {
      const balance = await usdcBalance(deps, account.tokenAccount as Address);
      const amount = sweepAmount(balance, account.plannedBaseUnits);
      if (amount === 0n) continue;
      const owner = await createKeyPairSignerFromBytes(deriveSolanaKeyPairBytes(deps.depositSeed, account.derivationIndex));
      if (owner.address !== account.owner)
        throw new Error(`deposit index ${account.derivationIndex} derives ${owner.address}, not the swept address ${account.owner}`);
      accounts.push({ owner, tokenAccount: account.tokenAccount as Address, amount, close: amount === balance });
    }
    if (accounts.length === 0) return { kind: 'deferred', reason: NOTHING_TO_SWEEP };
    return {
      kind: 'signed',
      transaction: await signSweepTransaction({ treasury: deps.treasury, mint: deps.usdcMint, accounts }, lifetime),
    };
  };
}

export function createSolanaSweep(deps: SolanaSweepDeps) {
  const writer = createSolanaChainWriter(deps);

  /**
   * The sweeps this run is to carry: those it planned before (a retry), those of earlier runs that have not landed,
   * then new batches of what the deposit accounts hold now. One plan at a time per treasury, so two runs cannot put
   * one account in two batches.
   */
  async function plan(runKey: string): Promise<string[]> {
    return deps.sql.begin(async (tx) => {
      await lockUntilCommit(tx, `sweep-plan:${deps.treasury.address}`);
      const { ofRun, unlanded } = await sweepsToFinish(tx, deps.mode, deps.treasury.address, runKey);
      if (ofRun.length > 0) return [...new Set([...ofRun, ...unlanded])];
      const due = await sweepDue(tx, deps.mode, PLAN_ACCOUNTS);
      const candidates = await Promise.all(
        due.map(async (d) => {
          const tokenAccount = await associatedUsdcAccount(d.owner as Address, deps.usdcMint);
          return { ...d, tokenAccount, balance: await usdcBalance(deps, tokenAccount) };
        }),
      );
      const planned = await insertSweeps(tx, {
        mode: deps.mode,
        runKey,
        treasury: deps.treasury.address,
        mint: deps.usdcMint,
        batches: planSweepBatches(candidates),
      });
      return [...unlanded, ...planned];
    });
  }

  /** What the landed transaction moved: the treasury's USDC gain, each deposit account's loss, its fee and the rent returned. */
  async function balanceDeltas(sweep: Sweep, signature: string): Promise<SweepDeltas & { swept: Map<string, bigint> }> {
    const landed = await deps.rpc
      .getTransaction(signature as Signature, { encoding: 'base64', commitment: 'confirmed', maxSupportedTransactionVersion: 0 })
      .send(rpcDeadline(deps.rpcTimeoutMs));
    if (!landed?.meta) throw new Error(`the node has no record of landed sweep transaction ${signature} yet`);
    const { meta } = landed;
    const held = (balances: typeof meta.preTokenBalances, owner: string) =>
      (balances ?? [])
        .filter((b) => b.owner === owner && b.mint === deps.usdcMint)
        .reduce((sum, b) => sum + BigInt(b.uiTokenAmount.amount), 0n);
    const swept = new Map<string, bigint>();
    for (const account of sweep.accounts) {
      const given = held(meta.preTokenBalances, account.owner) - held(meta.postTokenBalances, account.owner);
      if (given > 0n) swept.set(account.tokenAccount, given);
    }
    // The treasury is the fee payer, the first account: its balance change is the rent returned less the fee.
    const gained = (meta.postBalances[0] ?? 0n) - (meta.preBalances[0] ?? 0n);
    return {
      usdc: held(meta.postTokenBalances, deps.treasury.address) - held(meta.preTokenBalances, deps.treasury.address),
      feeLamports: meta.fee,
      rentLamports: gained + meta.fee,
      swept,
    };
  }

  async function recordOutcome(sweep: Sweep, progress: WriteProgress): Promise<SweepOutcome> {
    const { intent } = progress;
    const signature = intent.signature ?? '';
    switch (intent.status) {
      case 'prepared':
        if (progress.deferred !== NOTHING_TO_SWEEP) throw new Error(`sweep ${sweep.id} was neither signed nor found empty`);
        await setSweepEmpty(deps.sql, sweep.id);
        return { status: 'empty' };
      case 'signed':
      case 'broadcast':
        await setSweepSubmitted(deps.sql, sweep.id, signature);
        return { status: 'submitted', signature };
      case 'confirmed':
      case 'finalized':
      case 'failed': {
        const status = intent.status;
        if (sweep.status === 'pending' || sweep.status === 'submitted') {
          const deltas = await balanceDeltas(sweep, signature);
          await deps.sql.begin(async (tx) => {
            await setSweepLanded(tx, sweep.id, { status, signature, ...deltas });
            for (const posting of sweepLanded(sweep.id, sweep.mode, deltas)) await postLedger(tx, posting);
          });
        } else if (status === 'finalized' && sweep.status === 'confirmed') {
          await setSweepFinalized(deps.sql, sweep.id);
        }
        if (status === 'failed') return { status, signature };
        const recorded = (await findSweep(deps.sql, sweep.id)) as Sweep;
        return { status, signature, usdcSwept: (recorded.usdcSwept ?? 0n).toString() };
      }
    }
  }

  return {
    plan,
    /** One pass of a planned sweep; call again while it is submitted. */
    async advance(sweepId: string): Promise<SweepOutcome> {
      const sweep = await findSweep(deps.sql, sweepId);
      if (!sweep || sweep.mode !== deps.mode || sweep.treasury !== deps.treasury.address)
        throw new Error(`no ${deps.mode} sweep ${sweepId} of treasury ${deps.treasury.address}`);
      if (sweep.status === 'empty') return { status: 'empty' };
      return recordOutcome(sweep, await writer.advance(sweepId, sweepSigner(deps, sweep)));
    },
  };
}
