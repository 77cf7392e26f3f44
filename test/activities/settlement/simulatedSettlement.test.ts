// The simulated route's settlement: one settled row per payment, whichever route began it, and never one that takes a
// treasury settlement from a payout already under way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulatedSettlement, type SimulatedSettlement } from '../../../activities/settlement/simulatedSettlement';
import { createSql, type Sql } from '../../../db/client';
import { insertChainIntent } from '../../../db/repositories/chainIntents';
import { insertPayout } from '../../../db/repositories/payouts';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { payoutIntentId } from '../../../domain/chainWrites/solanaChainIntent';
import { paymentIdForSession } from '../../../domain/wire/ids';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';

let db: TestDatabase;
let worker: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  worker = createSql(db.urlAs('checkout_worker'), { max: 2 });
});
afterAll(async () => {
  await worker?.end({ timeout: 5 });
  await db?.drop();
});

const SETTLED_AT = new Date('2026-11-24T12:00:00Z');
const settleSimulated = () => createSimulatedSettlement({ sql: worker, now: () => SETTLED_AT });

async function paidSession(): Promise<SimulatedSettlement & { merchantId: string }> {
  const { merchant } = await createTestMerchant(db.sql);
  const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
  await insertSessionRecord(db.sql, record, 'confirming');
  const paymentId = paymentIdForSession(record.sessionId);
  await db.sql`
    insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, decimals)
    values (${paymentId}, ${record.sessionId}, 'USDC', 'base', '0x0000000000000000000000000000000000000001', 19990000, 6)`;
  return { paymentId, sessionId: record.sessionId, merchantId: merchant.id, amountUsdcBaseUnits: '19990000' };
}

function settlementRow(paymentId: string) {
  return db.sql<{ status: string; provider: string; reference: string | null; amount: string }[]>`
    select status, provider, reference, amount_usdc_base_units::text as amount from settlements where payment_id = ${paymentId}`;
}

const treasuryRow = (input: SimulatedSettlement) => worker`
  insert into settlements (payment_id, session_id, provider, amount_usdc_base_units, status)
  values (${input.paymentId}, ${input.sessionId}, 'solana-treasury', ${input.amountUsdcBaseUnits}, 'pending')`;

describe('settleSimulated', () => {
  it('settles the payment in one row, and answers a second call with the same settlement', async () => {
    const input = await paidSession();
    const settled = await settleSimulated()(input);
    expect(settled).toEqual({
      provider: 'simulated',
      reference: `sim_${input.paymentId}`,
      amountUsdc: '19990000',
      settledAt: SETTLED_AT.toISOString(),
    });
    expect(await settlementRow(input.paymentId)).toEqual([
      { status: 'settled', provider: 'simulated', reference: `sim_${input.paymentId}`, amount: '19990000' },
    ]);
    const later = createSimulatedSettlement({ sql: worker, now: () => new Date('2026-12-01T00:00:00Z') });
    expect(await later(input)).toEqual(settled);
  });

  it('takes over a treasury settlement whose signer had no treasury (no payout), and never one with a payout', async () => {
    const unpaid = await paidSession();
    await treasuryRow(unpaid);
    expect(await settleSimulated()(unpaid)).toMatchObject({ provider: 'simulated', reference: `sim_${unpaid.paymentId}` });

    const paying = await paidSession();
    const { paymentId } = paying;
    await treasuryRow(paying);
    // The signer's payout, written as the signer writes it: the worker may not.
    await insertChainIntent(db.sql, payoutIntentId(paymentId));
    await insertPayout(db.sql, {
      paymentId,
      merchantId: paying.merchantId,
      mode: 'test',
      amount: 19_990_000n,
      netted: 0n,
      fee: 0n,
      mint: 'mint',
      treasury: 'treasury',
      merchantWallet: 'wallet',
      intentId: payoutIntentId(paymentId),
    });
    await expect(settleSimulated()(paying)).rejects.toThrow(/was started with provider solana-treasury; only it may finish the settlement/);
    expect(await settlementRow(paymentId)).toEqual([
      { status: 'pending', provider: 'solana-treasury', reference: null, amount: '19990000' },
    ]);
  });

  it('answers a payment the treasury settled with the treasury settlement, writing nothing', async () => {
    const input = await paidSession();
    await treasuryRow(input);
    await worker`update settlements set status = 'settled', reference = 'sig', settled_at = ${SETTLED_AT} where payment_id = ${input.paymentId}`;
    expect(await settleSimulated()(input)).toEqual({
      provider: 'solana-treasury',
      reference: 'sig',
      amountUsdc: '19990000',
      settledAt: SETTLED_AT.toISOString(),
    });
    expect(await settlementRow(input.paymentId)).toEqual([
      { status: 'settled', provider: 'solana-treasury', reference: 'sig', amount: '19990000' },
    ]);
  });
});
