// Reconciles one mode's ledger with its Solana network (domain/ledger/reconciliation.ts) from public data alone: the
// treasury's address, the USDC mint and an RPC endpoint, never a key, so the worker and the admin CLI can run it;
// where the mode has a DepositCollector, what it holds on each EVM chain against collector:<chain>; and on each EVM
// chain with an RPC endpoint, its deposit addresses, HD addresses' gas and relayer (evmChainHoldings.ts).
// Each run's report is stored, so the CLI, the metrics and `treasury status` read the last one without a chain.
import { getTokenDecoder } from '@solana-program/token';
import type { Address, Rpc, SolanaRpcApi } from '@solana/kit';
import { erc20Abi, type Address as EvmAddress, type PublicClient } from 'viem';
import type { Queryable } from '../../db/client';
import { submittedWithdrawals } from '../../db/repositories/inventoryWithdrawals';
import { expectedAfterWithdrawals, withdrawnNotPosted } from '../../domain/inventory/withdrawalsInFlight';
import { insertReconciliationRun, ledgerBalances, solanaDepositOwners, type ReconciliationRun } from '../../db/repositories/reconciliation';
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import { ACCOUNT, ASSET, tokenAsset } from '../../domain/ledger/ledger';
import { differences, RECONCILED_ACCOUNTS, reconcileBalances, type ReconciledAccount } from '../../domain/ledger/reconciliation';
import type { Mode } from '../../domain/wire/session';
import { rpcDeadline } from '../http/rpcDeadline';
import { evmChainAccounts, type EvmChainView } from './evmChainHoldings';
import { associatedUsdcAccount } from '../../domain/addresses/solanaTokenAccount';
import { tronAccounts, type TronView } from './tronHoldings';

/** A mode's DepositCollector on one EVM chain (EVM_DEPOSIT_COLLECTOR_<MODE>): what collector:<chain> should hold. */
export interface CollectorView {
  chain: Chain;
  client: PublicClient;
  address: EvmAddress;
  tokens: ReadonlyArray<{ symbol: TokenSymbol; address: EvmAddress }>;
  /** Read this deep: a sweep or burn is posted once final, so a shallower read would differ while it settles. */
  confirmations: number;
}

/** One mode's treasury as the chain shows it: its public address on its network, and that network's USDC. */
export interface TreasuryView {
  mode: Mode;
  rpc: Rpc<SolanaRpcApi>;
  treasury: Address;
  usdcMint: Address;
  /** The mode's collectors, whose tokens are reconciled too; none unless given. */
  collectors?: readonly CollectorView[];
  /** The EVM chains whose deposit addresses, HD gas and relayer are reconciled too; none unless given. */
  evmChains?: readonly EvmChainView[];
  /** Tron, whose deposit addresses and collector are reconciled too; not unless given. */
  tron?: TronView;
  /** Each chain call's limit; 10 s unless given. */
  rpcTimeoutMs?: number;
}

/** Every account a run of `view` compares: the treasury's, the Solana deposits', and each collector token's. */
export function reconciledAccounts(view: TreasuryView): ReconciledAccount[] {
  return [
    ...RECONCILED_ACCOUNTS,
    ...(view.collectors ?? []).flatMap((c) =>
      c.tokens.map((t) => ({ account: ACCOUNT.collector(c.chain), asset: tokenAsset(t.symbol, c.chain) })),
    ),
  ];
}

async function collectorHolds(view: TreasuryView, account: ReconciledAccount): Promise<bigint | undefined> {
  const collector = view.collectors?.find((c) => ACCOUNT.collector(c.chain) === account.account);
  const token = collector?.tokens.find((t) => tokenAsset(t.symbol, collector.chain) === account.asset);
  if (!collector || !token) return undefined;
  const head = await collector.client.getBlockNumber({ cacheTime: 0 });
  const depth = BigInt(collector.confirmations - 1);
  return collector.client.readContract({
    address: token.address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [collector.address],
    blockNumber: head > depth ? head - depth : 0n,
  });
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
export async function observedBalances(
  view: TreasuryView,
  sql: Queryable,
  accounts: readonly ReconciledAccount[],
): Promise<Array<ReconciledAccount & { amount: bigint }>> {
  return Promise.all(
    accounts.map(async (a) => {
      const read = READERS[`${a.account} ${a.asset}`];
      const amount = read ? await read(view, sql) : await collectorHolds(view, a);
      if (amount === undefined) throw new Error(`no on-chain reader for ${a.account} ${a.asset}`);
      return { ...a, amount };
    }),
  );
}

/** Compares the mode's ledger with its chain now and stores the report. */
export async function reconcileLedger(view: TreasuryView, sql: Queryable): Promise<ReconciliationRun> {
  // The chain is read after the ledger: a payout landing in between shows as a difference this run and is gone the next.
  const chains = await Promise.all([
    ...(view.evmChains ?? []).map((chain) => evmChainAccounts(chain, view.mode, sql)),
    ...(view.tron ? [tronAccounts(view.tron, view.mode, sql)] : []),
  ]);
  const accounts = [...reconciledAccounts(view), ...chains.flatMap((c) => c.accounts)];
  // A withdrawal of held inventory that left the collector where it is read but is not posted yet is no difference.
  const [posted, submitted] = await Promise.all([ledgerBalances(sql, view.mode, accounts), submittedWithdrawals(sql, view.mode)]);
  const ledger = expectedAfterWithdrawals(posted, withdrawnNotPosted(submitted));
  const observed = [
    ...(await observedBalances(view, sql, reconciledAccounts(view))),
    ...(await Promise.all(chains.map((c) => c.read()))).flat(),
  ];
  const balances = reconcileBalances(accounts, ledger, observed);
  return insertReconciliationRun(sql, view.mode, balances, differences(balances));
}
