// A settlement's row exists before its provider moves money, so a retry after a crash between
// the two finishes the same settlement with the same provider instead of paying a second time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSettlePayment, type SettleInput } from '../../activities/settlement/settlePayment';
import type { SettlementProvider, SettlementRequest } from '../../activities/settlement/settlementProvider';
import { createSql, type Sql } from '../../db/client';
import { insertChainIntent } from '../../db/repositories/chainIntents';
import { insertPayout } from '../../db/repositories/payouts';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { payoutIntentId } from '../../domain/chainWrites/solanaChainIntent';
import { paymentIdForSession } from '../../domain/wire/ids';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';

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

async function paidSession(): Promise<SettleInput> {
  const { merchant } = await createTestMerchant(db.sql);
  const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
  await insertSessionRecord(db.sql, record, 'confirming');
  await db.sql`
    insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, decimals)
    values (${paymentIdForSession(record.sessionId)}, ${record.sessionId}, 'USDC', 'base', '0x0000000000000000000000000000000000000001', 19990000, 6)`;
  return { sessionId: record.sessionId, merchantId: merchant.id, mode: 'test', chain: 'base', token: 'USDC', receivedBaseUnits: '19990000', decimals: 6 };
}

function settlementRow(paymentId: string) {
  return db.sql<{ status: string; provider: string; reference: string | null; amount: string }[]>`
    select status, provider, reference, amount_usdc_base_units::text as amount from settlements where payment_id = ${paymentId}`;
}

/** A provider that records what it was asked and what the settlements table held at that moment. */
function recordingProvider(name: string, behave: (call: number) => void = () => undefined) {
  const calls: { request: SettlementRequest; rowAtCall: Awaited<ReturnType<typeof settlementRow>> }[] = [];
  const provider: SettlementProvider = {
    name,
    async settle(request) {
      calls.push({ request, rowAtCall: await settlementRow(request.paymentId) });
      behave(calls.length);
      return { provider: name, reference: `ref_${request.paymentId}`, amountUsdcBaseUnits: request.sourceBaseUnits, settledAt: new Date('2026-11-24T12:00:00Z') };
    },
  };
  return { provider, calls };
}

describe('settlePayment', () => {
  it('writes the pending settlement row before the provider runs, then completes it', async () => {
    const input = await paidSession();
    const paymentId = paymentIdForSession(input.sessionId);
    const { provider, calls } = recordingProvider('treasury');
    const settled = await createSettlePayment({ sql: worker, providerFor: () => provider })(input);

    expect(calls[0]?.rowAtCall).toEqual([{ status: 'pending', provider: 'treasury', reference: null, amount: '19990000' }]);
    expect(await settlementRow(paymentId)).toEqual([{ status: 'settled', provider: 'treasury', reference: `ref_${paymentId}`, amount: '19990000' }]);
    expect(settled).toEqual({ provider: 'treasury', reference: `ref_${paymentId}`, amountUsdc: '19990000', settledAt: '2026-11-24T12:00:00.000Z' });
  });

  it('after a crash between the provider and the record, the retry finishes the same settlement: one row, the same payment id', async () => {
    const input = await paidSession();
    const paymentId = paymentIdForSession(input.sessionId);
    const { provider, calls } = recordingProvider('treasury', (call) => {
      if (call === 1) throw new Error('worker killed after the provider moved the money');
    });
    const settle = createSettlePayment({ sql: worker, providerFor: () => provider });
    await expect(settle(input)).rejects.toThrow(/worker killed/);
    await settle(input);

    expect(calls.map((call) => call.request.paymentId)).toEqual([paymentId, paymentId]);
    expect(calls[1]?.rowAtCall).toEqual([{ status: 'pending', provider: 'treasury', reference: null, amount: '19990000' }]);
    expect(await settlementRow(paymentId)).toEqual([{ status: 'settled', provider: 'treasury', reference: `ref_${paymentId}`, amount: '19990000' }]);
  });

  it('never hands a settlement begun by one provider to another', async () => {
    const input = await paidSession();
    const first = recordingProvider('treasury', () => {
      throw new Error('crashed mid-payout');
    });
    await expect(createSettlePayment({ sql: worker, providerFor: () => first.provider })(input)).rejects.toThrow(/crashed/);

    const second = recordingProvider('other');
    await expect(createSettlePayment({ sql: worker, providerFor: () => second.provider })(input)).rejects.toThrow(
      /was started with provider treasury, which is no longer configured for this route/,
    );
    expect(second.calls).toEqual([]);
  });

  it('takes over a treasury settlement only while it has no payout: a signer without a treasury paid nothing', async () => {
    const unpaid = await paidSession();
    const treasuryRow = (input: SettleInput) => worker`
      insert into settlements (payment_id, session_id, provider, amount_usdc_base_units, status)
      values (${paymentIdForSession(input.sessionId)}, ${input.sessionId}, 'solana-treasury', 19990000, 'pending')`;
    await treasuryRow(unpaid);
    const simulated = recordingProvider('simulated');
    await createSettlePayment({ sql: worker, providerFor: () => simulated.provider })(unpaid);
    expect(await settlementRow(paymentIdForSession(unpaid.sessionId))).toEqual([
      { status: 'settled', provider: 'simulated', reference: `ref_${paymentIdForSession(unpaid.sessionId)}`, amount: '19990000' },
    ]);

    const paying = await paidSession();
    const paymentId = paymentIdForSession(paying.sessionId);
    await treasuryRow(paying);
    await insertChainIntent(worker, payoutIntentId(paymentId));
    await insertPayout(worker, { paymentId, merchantId: paying.merchantId, mode: 'test', amount: 19_990_000n, mint: 'mint', treasury: 'treasury', merchantWallet: 'wallet', intentId: payoutIntentId(paymentId) });
    const other = recordingProvider('simulated');
    await expect(createSettlePayment({ sql: worker, providerFor: () => other.provider })(paying)).rejects.toThrow(/was started with provider solana-treasury/);
    expect(other.calls).toEqual([]);
    expect(await settlementRow(paymentId)).toEqual([{ status: 'pending', provider: 'solana-treasury', reference: null, amount: '19990000' }]);
  });

  it('answers a settled payment from its row without calling the provider again', async () => {
    const input = await paidSession();
    const { provider, calls } = recordingProvider('treasury');
    const settle = createSettlePayment({ sql: worker, providerFor: () => provider });
    const first = await settle(input);
    expect(await settle(input)).toEqual(first);
    expect(calls).toHaveLength(1);
  });
});
