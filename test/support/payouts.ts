// Payouts as the payout code writes them, for tests that read or act on them without a chain: a session and its
// payment, the payout row, its chain intent moved through its states by the chain-intent repository, its ledger
// postings and (optionally) the settlements row, each as treasuryPayout.ts and treasurySettlement.ts write them.
import { randomBytes } from 'node:crypto';
import type { Sql } from '../../db/client';
import { insertChainIntent, recordBroadcast, recordLanded, recordSigned, recordSuperseded } from '../../db/repositories/chainIntents';
import { postLedger } from '../../db/repositories/ledger';
import { insertPayout, setPayoutStatus, type PayoutStatus } from '../../db/repositories/payouts';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { payoutIntentId } from '../../domain/chainWrites/solanaChainIntent';
import { paymentIdForSession } from '../../domain/wire/ids';
import { payoutConfirmed, payoutReleased, payoutReserved } from '../../domain/ledger/ledger';
import type { Mode } from '../../domain/wire/session';
import { sessionRecord } from './sessionRecords';

const WALLET = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
export const TREASURY = {
  test: 'TestTreasury1111111111111111111111111111111',
  live: 'LiveTreasury1111111111111111111111111111111',
} as const;

const signature = () => randomBytes(32).toString('hex');

export interface TestPayout {
  paymentId: string;
  sessionId: string;
  signature: string | null;
  superseded: string | null;
}

/** A payment and its payout, moved to `status` the way the payout activity moves it. */
export async function insertTestPayout(
  sql: Sql,
  merchantId: string,
  options: { status: PayoutStatus; amount: bigint; mode?: Mode; ageMinutes?: number; settlement?: 'pending' | 'settled' },
): Promise<TestPayout> {
  const mode = options.mode ?? 'test';
  const record = { ...sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 }), mode };
  await insertSessionRecord(sql, record, 'confirming');
  const paymentId = paymentIdForSession(record.sessionId);
  await sql`insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
            values (${paymentId}, ${record.sessionId}, 'USDC', 'solana', 'deposit', ${options.amount.toString()}, ${options.amount.toString()}, 6)`;
  const intentId = payoutIntentId(paymentId);
  const row = {
    paymentId,
    merchantId,
    mode,
    amount: options.amount,
    netted: 0n,
    fee: 0n,
    mint: 'Mint1111',
    treasury: TREASURY[mode],
    merchantWallet: WALLET,
    intentId,
  };
  await insertChainIntent(sql, intentId);
  await insertPayout(sql, row);
  await postLedger(sql, payoutReserved(row));
  let current: string | null = null;
  let superseded: string | null = null;
  if (options.status !== 'pending' && options.status !== 'awaiting_liquidity') {
    if (options.status === 'submitted') {
      // An expired first attempt, then the one in flight.
      superseded = signature();
      await recordSigned(sql, intentId, { wireTransaction: 'AAAA', signature: superseded, lastValidBlockHeight: 900n });
      await recordBroadcast(sql, intentId, superseded);
      await recordSuperseded(sql, intentId, superseded);
    }
    current = signature();
    await recordSigned(sql, intentId, { wireTransaction: 'AAAA', signature: current, lastValidBlockHeight: 1000n });
    await recordBroadcast(sql, intentId, current);
    if (options.status === 'confirmed' || options.status === 'finalized') {
      await recordLanded(sql, intentId, current, { status: options.status, slot: 77n });
      await postLedger(sql, payoutConfirmed(row));
    }
    if (options.status === 'failed') {
      await recordLanded(sql, intentId, current, { status: 'failed', slot: 78n, error: { InstructionError: [1, { Custom: 1 }] } });
      await postLedger(sql, payoutReleased(row));
    }
  }
  await setPayoutStatus(sql, paymentId, options.status, current);
  if (options.ageMinutes)
    await sql`update payouts set created_at = now() - make_interval(mins => ${options.ageMinutes}) where payment_id = ${paymentId}`;
  if (options.settlement) {
    const settled = options.settlement === 'settled';
    await sql`insert into settlements (payment_id, session_id, provider, reference, amount_usdc_base_units, status, settled_at)
              values (${paymentId}, ${record.sessionId}, 'solana-treasury', ${settled ? current : null}, ${options.amount.toString()}, ${options.settlement}, ${settled ? new Date() : null})`;
  }
  return { paymentId, sessionId: record.sessionId, signature: current, superseded };
}
