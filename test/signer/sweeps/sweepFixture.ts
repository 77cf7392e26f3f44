// What the sweep tests share beyond the payout fixture: deposits as the service records them — a session's deposit
// address derived from the test seed at a fresh index, its payment settled from the treasury, the indexer's confirmed
// deposit credited to it and posted to the ledger — and the USDC really sent to that address on the local chain.
import { randomBytes, randomInt } from 'node:crypto';
import type { Address } from '@solana/kit';
import { deriveSolanaAddress } from '../../../domain/addresses/hdDerivation';
import { depositSeed } from '../../../domain/addresses/depositSeed';
import { postDepositsSettled } from '../../../db/repositories/depositLedger';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { paymentIdForSession } from '../../../domain/wire/ids';
import type { Sql } from '../../../db/client';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';
import { mintTo } from '../../../toolchain/localSolana/splToken';
import type { PayoutFixture } from '../../activities/settlement/payoutFixture';

/** Where deposits are recorded (`sql` as the indexer and the session write, `worker` as the settlement posts) and made. */
export interface DepositTarget {
  sql: Sql;
  worker: Sql;
  /** Sends `amount` USDC to `owner` on the chain and returns once it is confirmed. */
  send(owner: Address, amount: bigint): Promise<{ signature: string; slot: bigint }>;
}

/** The payout fixture's chain, which makes a block only when asked. */
export function payoutFixtureTarget(f: PayoutFixture): DepositTarget {
  return {
    sql: f.db.sql,
    worker: f.worker,
    async send(owner, amount) {
      const sent = await mintTo(f.chain, f.usdc, owner, amount);
      f.chain.produce();
      return sent;
    },
  };
}

/** The development mnemonic's seed, which the signer falls back to in test mode. */
export const TEST_SEED = depositSeed({ mode: 'test' });

export interface TestDeposit {
  owner: Address;
  sessionId: string;
  paymentId: string;
  derivationIndex: number;
}

/** `amount` sent to the address on chain, and the indexer's confirmed deposit of it, credited to the session unless late. */
async function deposited(f: DepositTarget, sessionId: string, owner: Address, amount: bigint, late = false): Promise<void> {
  const sent = await f.send(owner, amount);
  await f.sql`insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address, block_number, block_hash, stage, confirmations, credited)
            values ('solana', ${sent.signature}, 0, 'testnet', ${sessionId}, 'USDC', ${amount.toString()}, ${randomBytes(16).toString('hex')}, ${owner}, ${sent.slot.toString()}, ${randomBytes(32).toString('hex')}, 'confirmed', 32, ${!late})`;
}

/** A deposit after the session closed: recorded for a refund, never credited, so never in the ledger. */
export async function lateDeposit(f: DepositTarget, deposit: TestDeposit, amount: bigint): Promise<void> {
  await deposited(f, deposit.sessionId, deposit.owner, amount, true);
}

/** Another deposit credited to an already settled payment, posted as its settlement posts them: beyond the price, refund due. */
export async function depositAgain(f: DepositTarget, deposit: TestDeposit, amount: bigint): Promise<void> {
  await deposited(f, deposit.sessionId, deposit.owner, amount);
  await postDepositsSettled(f.worker, deposit.paymentId);
}

/**
 * A settled payment whose deposit address received `amounts`, one confirmed deposit each. The session's price is what
 * they add up to, so they are owed to the merchant whole, unless `price` (in base units, whole cents) says otherwise:
 * below it, the excess is posted as refund due.
 */
export async function settledDeposit(
  f: DepositTarget,
  amounts: bigint[],
  options: { settlement?: 'solana-treasury' | 'simulated' | 'none'; price?: bigint } = {},
): Promise<TestDeposit> {
  const { sql } = f;
  const { merchant } = await createTestMerchant(sql);
  const total = amounts.reduce((a, b) => a + b, 0n).toString();
  const price = (options.price ?? BigInt(total)).toString();
  const record = {
    ...sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 }),
    amountUsdCents: (BigInt(price) / 10_000n).toString(),
  };
  await insertSessionRecord(sql, record, 'completed');
  // Above the sequence's reach, so no other test's session takes the same index.
  const derivationIndex = randomInt(1_000_000, 2 ** 31 - 1);
  const owner = deriveSolanaAddress(TEST_SEED, derivationIndex) as Address;
  await sql`insert into deposit_addresses (session_id, derivation_index, evm_address, tron_address, solana_address, mode)
            values (${record.sessionId}, ${derivationIndex}, ${`0x${randomBytes(20).toString('hex')}`}, ${'T' + randomBytes(16).toString('hex')}, ${owner}, 'test')`;
  const paymentId = paymentIdForSession(record.sessionId);
  await sql`insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
            values (${paymentId}, ${record.sessionId}, 'USDC', 'solana', ${owner}, ${price}, ${total}, 6)`;
  for (const amount of amounts) await deposited(f, record.sessionId, owner, amount);
  const provider = options.settlement ?? 'solana-treasury';
  if (provider !== 'none') {
    await sql`insert into settlements (payment_id, session_id, provider, reference, amount_usdc_base_units, status, settled_at)
              values (${paymentId}, ${record.sessionId}, ${provider}, 'ref', ${price}, 'settled', now())`;
  }
  if (provider === 'solana-treasury') await postDepositsSettled(f.worker, paymentId);
  return { owner, sessionId: record.sessionId, paymentId, derivationIndex };
}
