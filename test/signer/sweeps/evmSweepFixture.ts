// What the EVM sweep tests share: the deposit contracts on a local chain (test/contracts/depositContractsFixture.ts),
// a migrated database the sweeper reaches as the signer's role, and forwarder deposits as the service records them:
// a session whose deposit address is the factory's clone for its salt, the token really sent there, the indexer's
// confirmed deposit credited to it and posted to the ledger as the settlement posts it, its payment paid out by the treasury.
import { randomBytes, randomInt } from 'node:crypto';
import type { Address } from 'viem';
import type { EvmSweepDeps } from '../../../signer/sweeps/evmSweep';
import type { EvmSweepOutcome } from '../../../signer/sweeps/forwarderSweep';
import { createSql, type Sql } from '../../../db/client';
import { postLedger } from '../../../db/repositories/ledger';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { deriveEvmAddress } from '../../../domain/addresses/hdDerivation';
import { depositSalt } from '../../../domain/addresses/depositSalt';
import type { TokenSymbol } from '../../../domain/chains/chains';
import type { EvmChain } from '../../../domain/sweeps/evmSweepPlan';
import { creditedAndSettled } from '../../support/depositPostings';
import { TREASURY_PROVIDER } from '../../../domain/settlement/settlementRoute';
import { paymentIdForSession } from '../../../domain/wire/ids';
import { addressOf, SWEEPER, type DepositContractsChain } from '../../contracts/depositContractsFixture';
import type { TestDatabase } from '../../support/database';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';

export interface EvmSweepFixture {
  contracts: DepositContractsChain;
  db: TestDatabase;
  /** The signer's least-privilege role: what its sweeps write as. */
  signer: Sql;
}

export function connectSigner(db: TestDatabase): Sql {
  return createSql(db.urlAs('checkout_signer'), { max: 4 });
}

/** A sweeper of `chain` on the fixture's node, the relayer being the factory's sweeper. */
export function sweeperDeps(
  f: EvmSweepFixture,
  chain: EvmChain,
  tokens: EvmSweepDeps['tokens'],
  overrides: Partial<EvmSweepDeps> = {},
): EvmSweepDeps {
  return {
    sql: f.signer,
    client: f.contracts.chain.publicClient,
    account: f.contracts.chain.account(SWEEPER),
    chain,
    mode: 'test',
    chainId: f.contracts.chain.chainId,
    requiredConfirmations: 2,
    stuckAfterMs: 60_000,
    feeBumpPercent: 20,
    maxFeePerGasCap: 10n ** 12n,
    tokens,
    minimumWholeTokens: 0,
    batchSize: 50,
    maxAddressFailures: 3,
    forwarders: { evm: { factory: f.contracts.factory, implementation: f.contracts.forwarder }, tron: undefined },
    ...overrides,
  };
}

/** A session and its EVM deposit address, of either scheme. */
export interface SessionDepositAddress {
  sessionId: string;
  address: Address;
}

/** A test-mode session with a forwarder deposit address of the fixture's factory, nothing deposited yet. */
export async function forwarderSession(f: EvmSweepFixture): Promise<SessionDepositAddress> {
  const { merchant } = await createTestMerchant(f.db.sql);
  const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
  await insertSessionRecord(f.db.sql, record, 'completed');
  const address = await addressOf(f.contracts, depositSalt(record.sessionId));
  await f.db
    .sql`insert into deposit_addresses (session_id, derivation_index, evm_address, tron_address, solana_address, mode, evm_scheme, evm_factory)
            values (${record.sessionId}, ${randomInt(1_000_000, 2 ** 31 - 1)}, ${address}, ${'T' + randomBytes(16).toString('hex')}, ${'S' + randomBytes(16).toString('hex')}, 'test', 'forwarder', ${f.contracts.factory})`;
  return { sessionId: record.sessionId, address };
}

/** The ids of the sweeps a plan of the sweeper's `token` answers: those the run is to carry. */
export async function planIds(
  sweep: { plan(token: TokenSymbol, runKey: string): Promise<{ sweepIds: string[] }> },
  runKey: string,
  token: TokenSymbol = 'USDC',
): Promise<string[]> {
  return (await sweep.plan(token, runKey)).sweepIds;
}

/** A test-mode session from before the forwarders: its deposit address is the HD address of `index` under `seed`. */
export async function hdSession(
  f: EvmSweepFixture,
  seed: Uint8Array,
  index = randomInt(1_000, 2 ** 31 - 1),
): Promise<SessionDepositAddress> {
  const { merchant } = await createTestMerchant(f.db.sql);
  const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
  await insertSessionRecord(f.db.sql, record, 'completed');
  const address = deriveEvmAddress({ seed }, index);
  await f.db.sql`insert into deposit_addresses (session_id, derivation_index, evm_address, tron_address, solana_address, mode)
            values (${record.sessionId}, ${index}, ${address}, ${'T' + randomBytes(16).toString('hex')}, ${'S' + randomBytes(16).toString('hex')}, 'test')`;
  return { sessionId: record.sessionId, address };
}

/**
 * The session's payment in `token` on `chain`, settled by a treasury payout (its merchant paid), as the settlement
 * records it: what makes the session's credited deposits the treasury's to sweep.
 */
export async function paidOutByTreasury(
  sql: Sql,
  sessionId: string,
  chain: string,
  token: TokenSymbol,
  depositAddress: string,
): Promise<void> {
  const paymentId = paymentIdForSession(sessionId);
  await sql`insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
            values (${paymentId}, ${sessionId}, ${token}, ${chain}, ${depositAddress}, 1, 1, 6) on conflict do nothing`;
  await sql`insert into settlements (payment_id, session_id, provider, reference, amount_usdc_base_units, status, settled_at)
            values (${paymentId}, ${sessionId}, ${TREASURY_PROVIDER}, 'payout-signature', 1, 'settled', now()) on conflict do nothing`;
}

/**
 * What a deposit was to its session: credited and paid out (the default), paid out with part of it posted as refund due
 * (an overpayment's excess), credited but not (yet) paid out, or late.
 */
export type DepositStanding = 'paid-out' | { paidOutWithRefundDue: bigint } | 'unpaid' | 'late';

/**
 * `amount` of `token` minted to the address, confirmed and credited to its session, and posted as the settlement posts
 * it; its payment settled by the treasury unless `standing` says otherwise.
 */
export async function deposit(
  f: EvmSweepFixture,
  chain: EvmChain,
  to: SessionDepositAddress,
  token: Address,
  amount: bigint,
  standing: DepositStanding = 'paid-out',
): Promise<void> {
  const sent = await f.contracts.chain.mint(token, to.address, amount);
  await f.db
    .sql`insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address, block_number, block_hash, stage, confirmations, credited, late)
            values (${chain}, ${sent.hash}, ${sent.logIndex}, 'testnet', ${to.sessionId}, 'USDC', ${amount.toString()}, ${'0x' + randomBytes(20).toString('hex')}, ${to.address.toLowerCase()},
                    ${sent.blockNumber.toString()}, ${sent.blockHash}, 'confirmed', 64, ${standing !== 'late'}, ${standing === 'late'})`;
  if (standing === 'late') return;
  const refundDue = typeof standing === 'object' ? standing.paidOutWithRefundDue : 0n;
  if (standing !== 'unpaid') await paidOutByTreasury(f.db.sql, to.sessionId, chain, 'USDC', to.address);
  const [session] = await f.db.sql<{ merchant_id: string }[]>`select merchant_id from sessions where id = ${to.sessionId}`;
  const deposit = { chain, token: 'USDC', txHash: sent.hash, logIndex: sent.logIndex, mode: 'test', amount, refundDue } as const;
  for (const posting of creditedAndSettled({ ...deposit, merchantId: session!.merchant_id })) await postLedger(f.db.sql, posting);
}

/** What the ledger holds in `account` of `asset`, all groups together. */
export async function ledgerBalance(sql: Sql, account: string, asset: string): Promise<bigint> {
  const [row] = await sql<
    { total: string }[]
  >`select coalesce(sum(amount), 0)::text as total from ledger_entries where account = ${account} and asset = ${asset}`;
  return BigInt(row!.total);
}

/** Passes until the sweep has landed, a block mined after each one that waits. */
export async function sweepToEnd(
  f: EvmSweepFixture,
  sweep: { advance(id: string): Promise<EvmSweepOutcome> },
  id: string,
): Promise<EvmSweepOutcome> {
  for (let pass = 0; pass < 20; pass++) {
    const outcome = await sweep.advance(id);
    if (outcome.status === 'finalized' || outcome.status === 'failed') return outcome;
    await f.contracts.chain.mine(1);
  }
  throw new Error(`sweep ${id} did not land in 20 passes`);
}
