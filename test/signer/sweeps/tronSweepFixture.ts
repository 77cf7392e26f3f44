// What the Tron sweep tests share: deposits as the service records them on Tron, against the loopback stand-in of
// java-tron's HTTP API (test/support/tron/tronWalletNode.ts): a session whose Tron deposit address is the factory's
// forwarder for its salt, or an HD address derived from a seed at the session's index (sessions from before the
// forwarders), the stand-in's balance of the token there (its named stand-in behaviour), the indexer's confirmed
// deposit credited to it and posted to the ledger as the settlement posts it.
import { randomBytes, randomInt } from 'node:crypto';
import { generateKeyPairSigner } from '@solana/kit';
import type { Sql } from '../../../db/client';
import { postLedger } from '../../../db/repositories/ledger';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { tronForwarderAddress, type TronForwarderContracts } from '../../../domain/addresses/depositForwarder';
import { depositSalt } from '../../../domain/addresses/depositSalt';
import { tronAddressFromEvmHex } from '../../../domain/addresses/tron';
import { deriveTronAddress } from '../../../domain/addresses/hdDerivation';
import type { TokenSymbol } from '../../../domain/chains/chains';
import { networkForMode } from '../../../domain/session/payablePairs';
import type { Mode } from '../../../domain/wire/session';
import { creditedAndSettled } from '../../support/depositPostings';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';
import { startTronWalletNode, type StandInFactory, type TronOutcome, type TronWalletNode } from '../../support/tron/tronWalletNode';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { tronRelayer, type TronRelayer } from '../../../signer/chainWrites/tronRelayer';
import { connectSigner, paidOutByTreasury } from './evmSweepFixture';
import { createTronWalletApi } from '../../../activities/http/tronWalletApi';
import type { EvmSweepOutcome, ForwarderSweep } from '../../../signer/sweeps/forwarderSweep';
import type { TronSweepDeps } from '../../../signer/sweeps/tronSweep';

/** A fresh base58 `T…` address nobody holds a key for. */
export const tronAddress = () => tronAddressFromEvmHex(`0x${randomBytes(20).toString('hex')}`);

export interface TronSweepFixture {
  /** The owner's pool: sessions, deposits and postings are written as the API and indexer would. */
  sql: Sql;
  node: TronWalletNode;
  contracts: TronForwarderContracts;
  token: { symbol: TokenSymbol; address: string };
}

/** A test-mode session with a Tron forwarder deposit address and `amount` of the token there, confirmed, credited and posted; its address. */
export async function tronForwarderDeposit(f: TronSweepFixture, amount: bigint): Promise<string> {
  return (await tronForwarderPayment(f, amount, 'test')).address;
}

/** A session of `mode` paid `amount` of the token at its Tron forwarder address, confirmed, credited, settled by the treasury and posted. */
export async function tronForwarderPayment(f: TronSweepFixture, amount: bigint, mode: Mode): Promise<TronPayment> {
  return tronDeposit(
    f,
    amount,
    (sessionId) => ({
      index: randomInt(1_000_000, 2 ** 31 - 1),
      address: tronForwarderAddress(f.contracts, depositSalt(sessionId)),
      forwarder: true,
    }),
    mode,
  );
}

export interface TronPayment {
  address: string;
  sessionId: string;
  merchantId: string;
}

/** A test-mode session whose Tron deposit address is the HD address of `seed` at `index`, with `amount` of the token there, confirmed, credited and posted; its address. */
export async function tronHdDeposit(f: TronSweepFixture, seed: Uint8Array, index: number, amount: bigint): Promise<string> {
  return (await tronDeposit(f, amount, () => ({ index, address: deriveTronAddress({ seed }, index), forwarder: false }))).address;
}

async function tronDeposit(
  f: TronSweepFixture,
  amount: bigint,
  addressOf: (sessionId: string) => { index: number; address: string; forwarder: boolean },
  mode: Mode = 'test',
): Promise<TronPayment> {
  const { merchant } = await createTestMerchant(f.sql);
  const record = { ...sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 }), mode };
  await insertSessionRecord(f.sql, record, 'completed');
  const { index, address, forwarder } = addressOf(record.sessionId);
  await f.sql`insert into deposit_addresses (session_id, derivation_index, evm_address, tron_address, solana_address, mode, tron_scheme, tron_factory)
            values (${record.sessionId}, ${index}, ${'0x' + randomBytes(20).toString('hex')}, ${address}, ${(await generateKeyPairSigner()).address}, ${mode},
                    ${forwarder ? 'forwarder' : 'hd'}, ${forwarder ? f.contracts.factory : null})`;
  f.node.setBalance(f.token.address, address, f.node.balanceOf(f.token.address, address) + amount);
  const txHash = randomBytes(32).toString('hex');
  await f.sql`insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address, block_number, block_hash, stage, confirmations, credited)
            values ('tron', ${txHash}, 0, ${networkForMode(mode)}, ${record.sessionId}, ${f.token.symbol}, ${amount.toString()}, ${tronAddress()}, ${address},
                    ${f.node.head().toString()}, ${randomBytes(32).toString('hex')}, 'confirmed', 19, true)`;
  await paidOutByTreasury(f.sql, record.sessionId, 'tron', f.token.symbol, address);
  const deposit = { chain: 'tron', token: f.token.symbol, txHash, logIndex: 0, mode, amount } as const;
  for (const posting of creditedAndSettled({ ...deposit, merchantId: merchant.id })) await postLedger(f.sql, posting);
  return { address, sessionId: record.sessionId, merchantId: merchant.id };
}

/** A Tron sweeper's dependencies against the stand-in: USDT only, no threshold, batches of 50, the test's fee limits. */
export function standInSweepDeps(
  base: Pick<TronSweepDeps, 'sql' | 'relayer' | 'feeLimitSun'> &
    Partial<Pick<TronSweepDeps, 'hdFeeLimitSun'>> & { node: TronWalletNode; usdt: string; contracts?: TronForwarderContracts },
  overrides: Partial<TronSweepDeps> = {},
): TronSweepDeps {
  return {
    sql: base.sql,
    api: createTronWalletApi({ fullNodeUrl: base.node.url, timeoutMs: 2_000 }),
    relayer: base.relayer,
    mode: 'test',
    expirationMs: 60_000,
    tokens: [{ symbol: 'USDT', address: base.usdt, decimals: 6 }],
    minimumWholeTokens: 0,
    batchSize: 50,
    maxAddressFailures: 3,
    forwarders: { evm: undefined, tron: base.contracts },
    feeLimitSun: base.feeLimitSun,
    hdFeeLimitSun: base.hdFeeLimitSun ?? base.feeLimitSun,
    ...overrides,
  };
}

/**
 * Passes, each by a fresh sweeper as a restarted signer would make, until the sweep has landed, a block produced after
 * each one that waits (taking what is pooled with `outcome`).
 */
export async function sweepUntilLanded(
  sweeper: () => ForwarderSweep,
  node: TronWalletNode,
  id: string,
  outcome?: (txId: string) => TronOutcome,
): Promise<EvmSweepOutcome> {
  for (let pass = 0; pass < 30; pass++) {
    const result = await sweeper().advance(id);
    if (result.status === 'finalized' || result.status === 'failed') return result;
    node.mine(1, outcome);
  }
  throw new Error(`sweep ${id} did not land in 30 passes`);
}

export interface TronSweepStandIn {
  db: TestDatabase;
  /** The signer role's pool, which its sweeps use. */
  signer: Sql;
  node: TronWalletNode;
  /** A fresh relayer key nobody else holds. */
  relayer: TronRelayer;
}

/** A database, the wallet-node stand-in playing `factory`, and a relayer: what a Tron sweep test file runs against. */
export async function startTronSweepStandIn(factory: StandInFactory): Promise<TronSweepStandIn> {
  const db = await createTestDatabase();
  const node = await startTronWalletNode();
  node.deployFactory(factory);
  const relayer = tronRelayer(randomBytes(32).toString('hex'));
  // Energy delegated to the relayer, more than every sweep of a file needs: a sweep is signed only when it is covered.
  node.setEnergy(relayer.address, { limit: 1_000_000_000n });
  return { db, signer: connectSigner(db), node, relayer };
}

export async function stopTronSweepStandIn(standIn: TronSweepStandIn | undefined): Promise<void> {
  await standIn?.signer.end({ timeout: 5 });
  await Promise.all([standIn?.db.drop(), standIn?.node.close()]);
}
