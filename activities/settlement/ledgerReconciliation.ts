// Reconciles one mode's ledger with its Solana network (domain/reconciliation.ts) from public data alone: the
// treasury's address, the USDC mint and an RPC endpoint, never a key, so the worker and the admin CLI can run it.
// Each run's report is stored, so the CLI, the metrics and `treasury status` read the last one without a chain.
import { getTokenDecoder } from '@solana-program/token';
import type { Address, Rpc, SolanaRpcApi } from '@solana/kit';
import type { Queryable } from '../../db/client';
import { insertReconciliationRun, ledgerBalances, solanaDepositOwners, type ReconciliationRun } from '../../db/repositories/reconciliation';
import { ACCOUNT, ASSET } from '../../domain/ledger';
import { differences, RECONCILED_ACCOUNTS, reconcileBalances, type ReconciledAccount } from '../../domain/reconciliation';
import type { Mode } from '../../domain/session';
import { rpcDeadline } from '../chainWrites/solanaChainWriter';
import { associatedUsdcAccount } from './payoutTransaction';

/** One mode's treasury as the chain shows it: its public address on its network, and that network's USDC. */
export interface TreasuryView {
  mode: Mode;
  rpc: Rpc<SolanaRpcApi>;
  treasury: Address;
  usdcMint: Address;
  /** Each chain call's limit; 10 s unless given. */
  rpcTimeoutMs?: number;
}

/** Deposit accounts read at once: a node rate-limits a burst of thousands. */
const DEPOSIT_READS_AT_ONCE = 8;

/** The USDC `owner`'s associated account holds; none when it has no such account. */
export async function usdcHeldBy(view: TreasuryView, owner: Address): Promise<bigint> {
  const account = await associatedUsdcAccount(owner, view.usdcMint);
  const info = await view.rpc.getAccountInfo(account, { encoding: 'base64', commitment: 'confirmed' }).send(rpcDeadline(view.rpcTimeoutMs));
  return info.value ? getTokenDecoder().decode(Buffer.from(info.value.data[0], 'base64')).amount : 0n;
}

async function lamportsOf(view: TreasuryView, owner: Address): Promise<bigint> {
  return (await view.rpc.getBalance(owner, { commitment: 'confirmed' }).send(rpcDeadline(view.rpcTimeoutMs))).value;
}

async function depositAccountsUsdc(view: TreasuryView, sql: Queryable): Promise<bigint> {
  const owners = await solanaDepositOwners(sql, view.mode);
  let total = 0n;
  for (let i = 0; i < owners.length; i += DEPOSIT_READS_AT_ONCE) {
    const held = await Promise.all(owners.slice(i, i + DEPOSIT_READS_AT_ONCE).map((owner) => usdcHeldBy(view, owner as Address)));
    total += held.reduce((sum, amount) => sum + amount, 0n);
  }
  return total;
}

type Reader = (view: TreasuryView, sql: Queryable) => Promise<bigint>;

/** Where on chain each reconciled account's holdings are, by `account asset`. */
const READERS: Record<string, Reader> = {
  [`${ACCOUNT.treasury} ${ASSET.usdcSolana}`]: (view) => usdcHeldBy(view, view.treasury),
  [`${ACCOUNT.treasury} ${ASSET.solSolana}`]: (view) => lamportsOf(view, view.treasury),
  [`${ACCOUNT.deposits} ${ASSET.usdcSolana}`]: depositAccountsUsdc,
};

/** What the chain holds for each of `accounts`. */
export async function observedBalances(view: TreasuryView, sql: Queryable, accounts: readonly ReconciledAccount[]): Promise<Array<ReconciledAccount & { amount: bigint }>> {
  return Promise.all(
    accounts.map(async (a) => {
      const read = READERS[`${a.account} ${a.asset}`];
      if (!read) throw new Error(`no on-chain reader for ${a.account} ${a.asset}`);
      return { ...a, amount: await read(view, sql) };
    }),
  );
}

/** Compares the mode's ledger with its chain now and stores the report. */
export async function reconcileLedger(view: TreasuryView, sql: Queryable): Promise<ReconciliationRun> {
  // The chain is read after the ledger: a payout landing in between shows as a difference this run and is gone the next.
  const ledger = await ledgerBalances(sql, view.mode, RECONCILED_ACCOUNTS);
  const observed = await observedBalances(view, sql, RECONCILED_ACCOUNTS);
  const balances = reconcileBalances(RECONCILED_ACCOUNTS, ledger, observed);
  return insertReconciliationRun(sql, view.mode, balances, differences(balances));
}
