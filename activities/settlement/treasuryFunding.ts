// Funds that reach or leave the treasury outside the service (an operator's top-up or withdrawal), recorded in the
// ledger so reconciliation does not report them as differences (domain/ledger/ledger.ts treasuryFunded, treasuryOpening).
// Both read the chain's own record, never an amount typed by hand.
import { getCompiledTransactionMessageDecoder, getTransactionDecoder, type Signature } from '@solana/kit';
import type { Queryable } from '../../db/client';
import { findChainIntentIdBySignature } from '../../db/repositories/chainIntents';
import { ledgerGroupExists, postLedger } from '../../db/repositories/ledger';
import { ledgerBalances } from '../../db/repositories/reconciliation';
import { ACCOUNT, ASSET, treasuryFunded, treasuryOpening, type LedgerPosting, type TreasuryChange } from '../../domain/ledger/ledger';
import { rpcDeadline } from '../http/rpcDeadline';
import { observedBalances, type TreasuryView } from './ledgerReconciliation';

/** A refusal to record: the ledger is left as it was. */
export class FundingRefused extends Error {
  override name = 'FundingRefused';
}

const SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;

interface TokenBalance {
  mint: string;
  owner?: string;
  uiTokenAmount: { amount: string };
}

const usdcOf = (view: TreasuryView, balances: readonly TokenBalance[] | null | undefined) =>
  (balances ?? [])
    .filter((b) => b.owner === view.treasury && b.mint === view.usdcMint)
    .reduce((sum, b) => sum + BigInt(b.uiTokenAmount.amount), 0n);

/** By how much a landed transaction changed the treasury's USDC and SOL, from the node's record of it. */
export async function treasuryChangeOf(view: TreasuryView, signature: string): Promise<TreasuryChange> {
  const landed = await view.rpc
    .getTransaction(signature as Signature, { encoding: 'base64', commitment: 'confirmed', maxSupportedTransactionVersion: 0 })
    .send(rpcDeadline(view.rpcTimeoutMs));
  if (!landed?.meta) throw new FundingRefused(`transaction ${signature} is not confirmed on the ${view.mode} network`);
  if (landed.meta.err) throw new FundingRefused(`transaction ${signature} failed on chain: it moved no funds`);
  const message = getCompiledTransactionMessageDecoder().decode(
    getTransactionDecoder().decode(Buffer.from(landed.transaction[0], 'base64')).messageBytes,
  );
  const index = message.staticAccounts.indexOf(view.treasury);
  const lamports = index < 0 ? 0n : (landed.meta.postBalances[index] ?? 0n) - (landed.meta.preBalances[index] ?? 0n);
  const usdc =
    usdcOf(view, landed.meta.postTokenBalances as readonly TokenBalance[]) -
    usdcOf(view, landed.meta.preTokenBalances as readonly TokenBalance[]);
  return { [ASSET.usdcSolana]: usdc, [ASSET.solSolana]: lamports };
}

/** Records an operator's transaction to or from the treasury; recording it again changes nothing. */
export async function recordTreasuryFunding(view: TreasuryView, sql: Queryable, signature: string): Promise<LedgerPosting> {
  if (!SIGNATURE.test(signature)) throw new FundingRefused(`"${signature}" is not a Solana transaction signature (base58)`);
  const intent = await findChainIntentIdBySignature(sql, signature);
  if (intent) throw new FundingRefused(`transaction ${signature} is the service's own (${intent}): the ledger already records it`);
  const posting = treasuryFunded(view.mode, signature, await treasuryChangeOf(view, signature));
  if (!posting)
    throw new FundingRefused(`transaction ${signature} did not change the ${view.mode} treasury ${view.treasury}'s USDC or SOL`);
  await postLedger(sql, posting);
  return posting;
}

/**
 * Records what the treasury held on a chain before the ledger knew it: the chain's holdings less the ledger's, once
 * per `chainId`. Undefined when they already agree, or that chain's opening is recorded.
 */
export async function recordTreasuryOpening(view: TreasuryView, sql: Queryable, chainId: string): Promise<LedgerPosting | undefined> {
  const accounts = [ASSET.usdcSolana, ASSET.solSolana].map((asset) => ({ account: ACCOUNT.treasury, asset }));
  const [ledger, observed] = await Promise.all([ledgerBalances(sql, view.mode, accounts), observedBalances(view, sql, accounts)]);
  const change: TreasuryChange = {};
  for (const o of observed) change[o.asset] = o.amount - (ledger.find((l) => l.asset === o.asset)?.amount ?? 0n);
  const posting = treasuryOpening(view.mode, chainId, change);
  if (!posting || (await ledgerGroupExists(sql, posting.groupId))) return undefined;
  await postLedger(sql, posting);
  return posting;
}
