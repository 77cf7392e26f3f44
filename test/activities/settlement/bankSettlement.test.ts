// The bank part of a settlement and the receipts behind it, as the worker's role writes them: receipts never replace
// the chosen payment, the bank part is settled once, and it sits beside the payment's payout part.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordBankReceipt } from '../../../activities/payments/recordBankReceipt';
import { sessionDetail } from '../../../api/dashboard/sessionDetail';
import { createChainRegistry } from '../../../domain/chains/chainRegistry';
import { loadChainsConfig } from '../../../config/chains';
import { createBankSettlement } from '../../../activities/settlement/bankSettlement';
import { createSimulatedSettlement } from '../../../activities/settlement/simulatedSettlement';
import { createSql, type Sql } from '../../../db/client';
import { listBankReceipts } from '../../../db/repositories/bankReceipts';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { findSettlement } from '../../../db/repositories/sessionTimeline';
import { paymentIdForSession } from '../../../domain/wire/ids';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';
import { EVERY_CHAIN_INDEXED } from '../../support/service';

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

const SETTLED_AT = new Date('2026-11-27T12:00:00Z');

async function session() {
  const { merchant } = await createTestMerchant(db.sql);
  const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
  await insertSessionRecord(db.sql, record, 'awaiting_payment');
  return {
    sessionId: record.sessionId,
    paymentId: paymentIdForSession(record.sessionId),
    owner: { merchantId: merchant.id, mode: record.mode },
  };
}

const payment = (sessionId: string) =>
  db.sql`select chain, token, deposit_address, expected_base_units::text as expected, received_base_units::text as received
         from payments where session_id = ${sessionId}`;

describe('recordBankReceipt', () => {
  it('keeps every receipt and leaves a chosen payment as it was', async () => {
    const { sessionId, paymentId, owner } = await session();
    await db.sql`
      insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
      values (${paymentId}, ${sessionId}, 'USDC', 'base', '0x0000000000000000000000000000000000000001', 100000000, 30000000, 6)`;
    const record = createRecordBankReceipt({ sql: worker });
    const credited = { expectedUsdCents: '10000', creditedUsdCents: '7000' };
    await record({ sessionId, receipt: { amountUsdCents: '7000', reference: 'CS-A', receivedBy: 'ops' }, credited });
    // A retried activity writes nothing twice.
    await record({ sessionId, receipt: { amountUsdCents: '7000', reference: 'CS-A', receivedBy: 'ops' }, credited });
    await record({ sessionId, receipt: { amountUsdCents: '500', reference: 'CS-LATE', receivedBy: 'ops' } });
    expect(await payment(sessionId)).toEqual([
      {
        chain: 'base',
        token: 'USDC',
        deposit_address: '0x0000000000000000000000000000000000000001',
        expected: '100000000',
        received: '30000000',
      },
    ]);
    expect((await listBankReceipts(db.sql, sessionId)).map((r) => [r.reference, r.amountUsdCents, r.credited])).toEqual([
      ['CS-A', '7000', true],
      ['CS-LATE', '500', false],
    ]);
    // The dashboard's session page lists both, the one not credited as refund due.
    const detail = await sessionDetail(
      {
        sql: db.sql,
        registry: createChainRegistry(loadChainsConfig({})),
        offer: { liveRoutes: [], indexed: EVERY_CHAIN_INDEXED },
        config: { minimumDepositCents: 1 },
      },
      owner,
      sessionId,
    );
    expect(detail.bank_receipts.map((r) => [r.reference, r.amount_usd, r.received_by, r.credited])).toEqual([
      ['CS-A', 70, 'ops', true],
      ['CS-LATE', 5, 'ops', false],
    ]);
  });

  it('gives a session paid by bank alone a bank payment, which later receipts add to', async () => {
    const { sessionId } = await session();
    const record = createRecordBankReceipt({ sql: worker });
    await record({
      sessionId,
      receipt: { amountUsdCents: '4000', reference: 'CS-1', receivedBy: 'ops' },
      credited: { expectedUsdCents: '10000', creditedUsdCents: '4000' },
    });
    await record({
      sessionId,
      receipt: { amountUsdCents: '6000', reference: 'CS-2', receivedBy: 'ops' },
      credited: { expectedUsdCents: '10000', creditedUsdCents: '10000' },
    });
    expect(await payment(sessionId)).toEqual([
      { chain: 'bank', token: 'USDC', deposit_address: 'CS-1', expected: '100000000', received: '100000000' },
    ]);
  });
});

describe('settleBankPart', () => {
  it('settles the bank part once, beside the payout part of the same payment', async () => {
    const { sessionId, paymentId } = await session();
    await db.sql`
      insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, decimals)
      values (${paymentId}, ${sessionId}, 'USDC', 'base', '0x0000000000000000000000000000000000000001', 100000000, 6)`;
    const settleBank = createBankSettlement({ sql: worker, now: () => SETTLED_AT });
    const bank = await settleBank({ paymentId, sessionId, usdCents: '7000', references: ['CS-A', 'CS-B'] });
    expect(bank).toEqual({ provider: 'bank', reference: 'CS-A, CS-B', amountUsdc: '70000000', settledAt: SETTLED_AT.toISOString() });
    // A second settlement of the session (a retry) answers with what was first recorded.
    expect(await createBankSettlement({ sql: worker })({ paymentId, sessionId, usdCents: '9000', references: ['CS-C'] })).toEqual(bank);
    const payout = await createSimulatedSettlement({ sql: worker, now: () => SETTLED_AT })({
      paymentId,
      sessionId,
      amountUsdcBaseUnits: '30000000',
    });
    expect(payout).toMatchObject({ provider: 'simulated', amountUsdc: '30000000' });
    expect(
      await db.sql`select part, provider, chain, amount_usdc_base_units::text as amount from settlements where session_id = ${sessionId} order by part`,
    ).toEqual([
      { part: 'bank', provider: 'bank', chain: 'bank', amount: '70000000' },
      { part: 'payout', provider: 'simulated', chain: 'solana', amount: '30000000' },
    ]);
    // The dashboard shows the payout where there is one.
    expect(await findSettlement(db.sql, sessionId)).toMatchObject({ provider: 'simulated', amountUsdcBaseUnits: 30000000n });
  });
});
