// The durable nonce accounts payouts are signed against (docs/settlement.md#payouts). Each treasury has a pool of
// PAYOUT_NONCE_ACCOUNTS System nonce accounts whose authority it is, at addresses derived from it
// (createAccountWithSeed), so creating them again can never make a second set: a repeated creation fails. The
// signer creates the missing ones in one transaction, written ahead as `nonce-pool:<treasury>`, and books their rent
// as account rent; accounts already on chain (created by an operator) are taken as they are. A payout takes an
// account under the treasury's lock, in the transaction that stores its signed bytes.
import {
  fetchMaybeNonce,
  getCreateAccountWithSeedInstruction,
  getInitializeNonceAccountInstruction,
  getNonceSize,
  NonceState,
  SYSTEM_PROGRAM_ADDRESS,
} from '@solana-program/system';
import { type Address, type KeyPairSigner, type Signature } from '@solana/kit';
import type { Queryable } from '../../db/client';
import { findChainIntent, insertChainIntent } from '../../db/repositories/chainIntents';
import { postLedger } from '../../db/repositories/ledger';
import { nonceAccountsCreated, type LedgerPosting } from '../../domain/ledger/ledger';
import {
  noncePoolIntentId,
  payoutNonceAddresses,
  pickNonceAccount,
  type FinalizedNonce,
  type PoolAddress,
} from '../../domain/settlement/payoutNonces';
import type { Mode } from '../../domain/wire/session';
import { createSolanaChainWriter, type SignIntent, type SolanaChainWriterDeps } from '../chainWrites/solanaChainWriter';
import { rpcDeadline } from '../../activities/http/rpcDeadline';
import { landedTransaction, signTreasuryTransaction, type DurableNonce } from './payoutTransaction';

/** What the nonce pool needs of a treasury's payout deps: its database, its node and its key. */
export type NonceDeps = SolanaChainWriterDeps & { treasury: KeyPairSigner };

async function readNonces(
  deps: NonceDeps,
  addresses: Address[],
  commitment: 'confirmed' | 'finalized',
): Promise<(FinalizedNonce | null)[]> {
  return Promise.all(
    addresses.map(async (address) => {
      const account = await fetchMaybeNonce(deps.rpc, address, { commitment, abortSignal: rpcDeadline(deps.rpcTimeoutMs).abortSignal });
      return account.exists && account.data.state === NonceState.Initialized
        ? { authority: account.data.authority, nonce: account.data.blockhash }
        : null;
    }),
  );
}

async function recordPool(sql: Queryable, treasury: Address, pool: PoolAddress[], createdBy: string | null): Promise<void> {
  for (const { address, seed } of pool)
    await sql`
      insert into solana_nonce_accounts (address, treasury, seed, created_by) values (${address}, ${treasury}, ${seed}, ${createdBy})
      on conflict (address) do nothing`;
}

/** Creates the nonce accounts not yet on chain: the treasury pays their rent and is their authority. */
function noncePoolSigner(deps: NonceDeps, pool: PoolAddress[]): SignIntent {
  return async (lifetime) => {
    const existing = await readNonces(
      deps,
      pool.map((p) => p.address),
      'confirmed',
    );
    const missing = pool.filter((_, index) => existing[index] === null);
    if (missing.length === 0) return { kind: 'deferred', reason: 'every nonce account is on chain already' };
    const rent = await deps.rpc.getMinimumBalanceForRentExemption(BigInt(getNonceSize())).send(rpcDeadline(deps.rpcTimeoutMs));
    const { treasury } = deps;
    const instructions = missing.flatMap(({ address, seed }) => [
      getCreateAccountWithSeedInstruction({
        payer: treasury,
        newAccount: address,
        base: treasury.address,
        seed,
        amount: rent,
        space: BigInt(getNonceSize()),
        programAddress: SYSTEM_PROGRAM_ADDRESS,
      }),
      getInitializeNonceAccountInstruction({ nonceAccount: address, nonceAuthority: treasury.address }),
    ]);
    return { kind: 'signed', transaction: await signTreasuryTransaction(treasury, lifetime, instructions) };
  };
}

/**
 * One pass of setting up the treasury's pool, until its accounts are recorded: found on chain, or created by the
 * pool's transaction once it has landed (its costs booked then). Payouts wait for it (PayoutNonceWait).
 */
export async function provisionPayoutNonces(deps: NonceDeps, mode: Mode): Promise<void> {
  const treasury = deps.treasury.address;
  const [recorded] = await deps.sql<{ n: number }[]>`select count(*)::int as n from solana_nonce_accounts where treasury = ${treasury}`;
  if ((recorded?.n ?? 0) > 0) return;
  const pool = await payoutNonceAddresses(treasury);
  const intentId = noncePoolIntentId(treasury);
  if (!(await findChainIntent(deps.sql, intentId))) {
    const onChain = await readNonces(
      deps,
      pool.map((p) => p.address),
      'finalized',
    );
    if (onChain.every((nonce) => nonce?.authority === treasury)) return recordPool(deps.sql, treasury, pool, null);
    await insertChainIntent(deps.sql, intentId);
  }
  const { intent, deferred } = await createSolanaChainWriter(deps).advance(intentId, noncePoolSigner(deps, pool));
  const landed = ['confirmed', 'finalized', 'failed'].includes(intent.status);
  if (deferred === undefined && !landed) return;
  // A creation judged dead by a node that did not know it may have landed after all (then its replacement failed, or
  // was never needed): whichever of the intent's transactions landed cost the treasury, and each is booked.
  const signatures = [...intent.supersededSignatures, ...(landed && intent.signature ? [intent.signature] : [])];
  const postings: (LedgerPosting | undefined)[] = [];
  for (const signature of signatures) {
    const found = await deps.rpc
      .getTransaction(signature as Signature, { encoding: 'base64', commitment: 'confirmed', maxSupportedTransactionVersion: 0 })
      .send(rpcDeadline(deps.rpcTimeoutMs));
    if (found) postings.push(nonceAccountsCreated(intentId, signature, mode, await landedTransaction(deps, signature)));
  }
  await deps.sql.begin(async (tx) => {
    for (const posting of postings) if (posting) await postLedger(tx, posting);
    await recordPool(tx, treasury, pool, postings.length > 0 ? intentId : null);
  });
}

/**
 * Hands the payout intent a nonce account of its treasury and the nonce to sign with, or undefined when none is free.
 * Call under the treasury's lock, in the transaction that stores the signed bytes: the account is held from then.
 */
export async function takePayoutNonce(deps: NonceDeps, tx: Queryable, intentId: string): Promise<DurableNonce | undefined> {
  const treasury = deps.treasury.address;
  const rows = await tx<{ address: Address; held_nonce: string | null }[]>`
    select a.address, i.nonce_value as held_nonce
    from solana_nonce_accounts a left join chain_intents i on i.id = a.held_by
    where a.treasury = ${treasury} order by a.seed`;
  if (rows.length === 0) return undefined;
  const finalized = await readNonces(
    deps,
    rows.map((r) => r.address),
    'finalized',
  );
  const picked = pickNonceAccount(
    rows.map((row, index) => ({ address: row.address, heldNonce: row.held_nonce, finalized: finalized[index] ?? null })),
    treasury,
  );
  if (!picked) return undefined;
  await tx`update solana_nonce_accounts set held_by = ${intentId}, updated_at = now() where address = ${picked.address}`;
  return { account: picked.address as Address, value: picked.nonce };
}
