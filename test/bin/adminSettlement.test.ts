// `settlement list | show | awaiting-approval | approve` and `treasury status` as operators run them (test/support/adminCli.ts),
// against payouts written by the payout code's own repositories: payout row, chain intent through its states,
// ledger postings and the settlements row, as treasuryPayout.ts and treasurySettlement.ts write them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCli, expectOneLineError } from '../support/adminCli';
import { createTestMerchant } from '../support/factories';
import { insertTestPayout, TREASURY, type TestPayout } from '../support/payouts';
import { startTestService, type TestService } from '../support/service';
import { sessionRecord } from '../support/sessionRecords';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { insertPendingSettlement } from '../../db/repositories/settlements';
import { TREASURY_PROVIDER } from '../../domain/settlement/settlementRoute';
import { paymentIdForSession } from '../../domain/wire/ids';

let service: TestService;
let merchantId: string;
const cli = adminCli(() => service);

const payout = (options: Parameters<typeof insertTestPayout>[2]) => insertTestPayout(service.db.sql, merchantId, options);

const made: Record<string, TestPayout> = {};

beforeAll(async () => {
  service = await startTestService({ worker: false });
  merchantId = (await createTestMerchant(service.db.sql)).merchant.id;
  made.confirmed = await payout({ status: 'confirmed', amount: 25_500_000n, ageMinutes: 30, settlement: 'settled' });
  made.fresh = await payout({ status: 'submitted', amount: 1_000_000n, settlement: 'pending' });
  made.oldSubmitted = await payout({ status: 'submitted', amount: 2_000_001n, ageMinutes: 10, settlement: 'pending' });
  made.short = await payout({ status: 'awaiting_liquidity', amount: 3_000_000n, settlement: 'pending' });
  made.failed = await payout({ status: 'failed', amount: 4_000_000n, mode: 'live', ageMinutes: 5, settlement: 'pending' });
});
afterAll(() => service?.stop());

type Listed = {
  payment_id: string;
  session_id: string;
  mode: string;
  amount_usdc: string;
  status: string;
  age_seconds: number;
  signature: string | null;
};

describe('checkout-admin settlement list', () => {
  it('lists every payout newest first with session, mode, exact USDC amount, status, age and signature', async () => {
    const out = (await cli.json(['settlement', 'list'])) as { payouts: Listed[] };
    expect(out.payouts.map((p) => p.payment_id).sort()).toEqual(
      Object.values(made)
        .map((m) => m.paymentId)
        .sort(),
    );
    expect(out.payouts[0]!.payment_id).toBe(made.short!.paymentId);
    expect(out.payouts.find((p) => p.payment_id === made.confirmed!.paymentId)).toMatchObject({
      session_id: made.confirmed!.sessionId,
      mode: 'test',
      amount_usdc: '25.500000',
      status: 'confirmed',
      signature: made.confirmed!.signature,
    });
    expect(out.payouts.find((p) => p.payment_id === made.oldSubmitted!.paymentId)).toMatchObject({
      amount_usdc: '2.000001',
      status: 'submitted',
    });
    expect(out.payouts.find((p) => p.payment_id === made.oldSubmitted!.paymentId)!.age_seconds).toBeGreaterThanOrEqual(600);

    const limited = (await cli.json(['settlement', 'list', '--limit', '2'])) as { payouts: Listed[] };
    expect(limited.payouts).toHaveLength(2);
  });

  it('--stuck keeps what an operator must look at: short of liquidity, failed, or not confirmed after two minutes', async () => {
    const out = (await cli.json(['settlement', 'list', '--stuck'])) as { payouts: Listed[]; stuck_after_seconds: number };
    expect(out.stuck_after_seconds).toBe(120);
    expect(out.payouts.map((p) => p.payment_id).sort()).toEqual(
      [made.oldSubmitted!, made.short!, made.failed!].map((m) => m.paymentId).sort(),
    );

    const text = await cli.run(['settlement', 'list', '--stuck']);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^PAYMENT\s+SESSION\s+MODE\s+AMOUNT USDC\s+STATUS\s+AGE\s+SIGNATURE$/);
    expect(lines).toHaveLength(4);
    expect(text.stdout).toMatch(
      new RegExp(
        `${made.failed!.paymentId}\\s+${made.failed!.sessionId}\\s+live\\s+4\\.000000\\s+failed\\s+5m\\s+${made.failed!.signature}`,
      ),
    );
    expect(text.stdout).toMatch(new RegExp(`${made.short!.paymentId}\\s+\\S+\\s+test\\s+3\\.000000\\s+awaiting_liquidity\\s+\\d+s\\s+-`));

    expectOneLineError(await cli.run(['settlement', 'list', '--limit', '0']), 2, /--limit: /);
  });
});

describe('checkout-admin settlement show', () => {
  it('shows the payout, its chain intent with superseded signatures, its settlements row and its ledger entries', async () => {
    const m = made.oldSubmitted!;
    const out = await cli.json(['settlement', 'show', m.paymentId]);
    expect(out).toMatchObject({
      payment_id: m.paymentId,
      payout: { status: 'submitted', amount_usdc: '2.000001', session_id: m.sessionId, treasury: TREASURY.test },
      chain_intent: {
        id: `payout:${m.paymentId}`,
        status: 'broadcast',
        signature: m.signature,
        superseded_signatures: [m.superseded],
        last_valid_block_height: '1000',
        nonce_account: null,
        nonce_value: null,
        error: null,
      },
      settlement: { provider: 'solana-treasury', status: 'pending', reference: null, amount_usdc_base_units: '2000001' },
      ledger_entries: [
        { group_id: `payout:${m.paymentId}:reserve`, account: `merchant_payable:${merchantId}`, asset: 'usdc:solana', amount: '2000001' },
        { group_id: `payout:${m.paymentId}:reserve`, account: 'payouts_in_flight', asset: 'usdc:solana', amount: '-2000001' },
      ],
    });
    expect((out.chain_intent as { signed_at: string | null }).signed_at).not.toBeNull();
  });

  it('shows a failed payout with the node error and the released reservation, as text', async () => {
    const m = made.failed!;
    const run = await cli.run(['settlement', 'show', m.paymentId]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`payout      failed, 4.000000 USDC (live) to ${merchantId}`);
    expect(run.stdout).toContain(`intent      payout:${m.paymentId} failed, signature ${m.signature}`);
    expect(run.stdout).toContain('error {"InstructionError":[1,{"Custom":1}]}');
    expect(run.stdout).toContain(`payout:${m.paymentId}:release`);
    expect(run.stdout).toContain('settlement  pending (solana-treasury), 4.000000 USDC');
  });

  it('refuses a malformed or unknown payment id', async () => {
    expectOneLineError(await cli.run(['settlement', 'show', 'cs_nope']), 2, /<pay_…>: Must be a payment id/);
    expectOneLineError(await cli.run(['settlement', 'show', 'pay_01HZZZZZZZZZZZZZZZZZZZZZZZ']), 1, /has no payout and no settlement/);
  });
});

describe('checkout-admin treasury status', () => {
  it('per mode: USDC reserved by unconfirmed payouts, payouts waiting by status and the oldest', async () => {
    const started = performance.now();
    const out = (await cli.json(['treasury', 'status'])) as { modes: Array<Record<string, unknown>> };
    expect(out.modes).toEqual([
      {
        mode: 'test',
        // No reconciliation has read this treasury's chain yet (test/bin/adminLedger.test.ts shows one that has).
        on_chain: null,
        treasuries: [TREASURY.test],
        reserved_usdc: '6.000001',
        reserved_base_units: '6000001',
        waiting: [
          { status: 'awaiting_liquidity', count: 1, amount_usdc: '3.000000', oldest_age_seconds: expect.any(Number) },
          { status: 'submitted', count: 2, amount_usdc: '3.000001', oldest_age_seconds: expect.any(Number) },
        ],
      },
      {
        mode: 'live',
        on_chain: null,
        treasuries: [TREASURY.live],
        reserved_usdc: '0.000000',
        reserved_base_units: '0',
        waiting: [{ status: 'failed', count: 1, amount_usdc: '4.000000', oldest_age_seconds: expect.any(Number) }],
      },
    ]);
    const submitted = (out.modes[0]!.waiting as Array<{ status: string; oldest_age_seconds: number }>).find(
      (w) => w.status === 'submitted',
    )!;
    expect(submitted.oldest_age_seconds).toBeGreaterThanOrEqual(600);

    const text = await cli.run(['treasury', 'status']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`test: treasury ${TREASURY.test}; 6.000001 USDC reserved by unconfirmed payouts`);
    // The age grows while the test runs (a minute on a loaded machine): between the row's and the row's plus that.
    const shownMinutes = Number(/ {2}submitted\s+2\s+3\.000001\s+(\d+)m/.exec(text.stdout)?.[1]);
    expect(shownMinutes).toBeGreaterThanOrEqual(10);
    expect(shownMinutes).toBeLessThanOrEqual(Math.floor((submitted.oldest_age_seconds + (performance.now() - started) / 1000) / 60));
  });
});

describe('checkout-admin settlement retry', () => {
  const rowsOf = (paymentId: string) => service.db.sql`
    select (select row_to_json(p)::text from payouts p where payment_id = ${paymentId}) as payout,
      (select row_to_json(s)::text from settlements s where payment_id = ${paymentId}) as settlement,
      (select row_to_json(i)::text from chain_intents i where id = ${`payout:${paymentId}`}) as intent,
      (select count(*)::int from ledger_entries where reference = ${`payout:${paymentId}`}) as ledger`;
  const workflowExists = async (workflowId: string) =>
    service.temporal.workflow
      .getHandle(workflowId)
      .describe()
      .then(() => true)
      .catch((error: Error) => (error.name === 'WorkflowNotFoundError' ? false : Promise.reject(error)));

  it('a confirmed, settled payout changes nothing: it says the payment is already paid and starts no workflow', async () => {
    const m = made.confirmed!;
    const before = await rowsOf(m.paymentId);
    const out = await cli.json(['settlement', 'retry', m.paymentId, '--operator', 'alice']);
    expect(out).toMatchObject({
      payment_id: m.paymentId,
      started: false,
      already_paid: true,
      settlement_reference: m.signature,
      payout_status: 'confirmed',
    });
    const text = await cli.run(['settlement', 'retry', m.paymentId, '--operator', 'alice']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`payment ${m.paymentId} is already paid`);
    expect(await workflowExists(`settle_${m.paymentId}`)).toBe(false);
    expect(await rowsOf(m.paymentId)).toEqual(before);
  });

  it('starts settle_<pay_id> again with the input rebuilt from the payout row; refuses while it runs; starts again once terminated', async () => {
    const m = await payout({ status: 'submitted', amount: 7_250_000n, ageMinutes: 20, settlement: 'pending' });
    const workflowId = `settle_${m.paymentId}`;
    const expectedInput = {
      route: 'treasury',
      paymentId: m.paymentId,
      sessionId: m.sessionId,
      merchantId,
      mode: 'test',
      amountUsdcBaseUnits: '7250000',
    };
    const before = await rowsOf(m.paymentId);

    const run = await cli.run(['settlement', 'retry', m.paymentId, '--operator', 'alice', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`warning: the session ${m.sessionId} keeps its status`);
    expect(JSON.parse(run.stdout)).toMatchObject({
      workflow_id: workflowId,
      started: true,
      previous_status: null,
      payout_status: 'submitted',
      input: expectedInput,
    });
    const handle = service.temporal.workflow.getHandle(workflowId);
    const description = await handle.describe();
    expect(description.type).toBe('settlePayment');
    expect(description.taskQueue).toBe(service.config.temporal.taskQueue);
    const history = await handle.fetchHistory();
    const { defaultPayloadConverter } = await import('@temporalio/common');
    const started = history.events![0]!.workflowExecutionStartedEventAttributes!;
    expect(defaultPayloadConverter.fromPayload(started.input!.payloads![0]!)).toEqual(expectedInput);
    // Starting the workflow wrote nothing itself: the payout it resumes is the one row the payment has.
    expect(await rowsOf(m.paymentId)).toEqual(before);

    expectOneLineError(
      await cli.run(['settlement', 'retry', m.paymentId, '--operator', 'alice']),
      1,
      new RegExp(`${workflowId} is running \\(payout submitted\\): nothing to retry`),
    );

    await handle.terminate('test: a stuck settlement');
    const again = await cli.json(['settlement', 'retry', m.paymentId, '--operator', 'alice']);
    expect(again).toMatchObject({ started: true, previous_status: 'terminated', input: expectedInput });
    expect((await handle.describe()).status.name).toBe('RUNNING');
    await handle.terminate('test over');
  });

  it('refuses a payout that failed on chain, and a payment without a payout, starting nothing', async () => {
    const m = made.failed!;
    expectOneLineError(
      await cli.run(['settlement', 'retry', m.paymentId, '--operator', 'alice']),
      1,
      /failed on chain .* a retry would fail the same way/,
    );
    expect(await workflowExists(`settle_${m.paymentId}`)).toBe(false);
    expectOneLineError(await cli.run(['settlement', 'retry', 'pay_01HZZZZZZZZZZZZZZZZZZZZZZZ', '--operator', 'alice']), 1, /has no payout/);
  });
});

describe('checkout-admin settlement resettle and repay', () => {
  it('never pays a failed payout again without --confirm, and resettle never pays one at all', async () => {
    const m = made.failed!;
    const before = await service.db.sql`select generation, status from payouts where payment_id = ${m.paymentId}`;
    expectOneLineError(
      await cli.run(['settlement', 'repay', m.paymentId, '--operator', 'alice']),
      1,
      /landed and failed; .* add --confirm/,
    );
    expectOneLineError(await cli.run(['settlement', 'resettle', m.paymentId, '--operator', 'alice']), 1, /settlement repay/);
    expectOneLineError(
      await cli.run(['settlement', 'repay', made.fresh!.paymentId, '--operator', 'alice', '--confirm']),
      1,
      /is submitted, not failed: it is followed to its end, never paid again/,
    );
    expect(await service.db.sql`select generation, status from payouts where payment_id = ${m.paymentId}`).toEqual(before);
    expect(await service.db.sql`select count(*)::int as n from failed_payouts`).toEqual([{ n: 0 }]);
  });
});

describe('checkout-admin settlement awaiting-approval and approve', () => {
  /** A live payment whose treasury settlement began and whose payout the signer has not written. */
  async function unwritten(merchant: string, amount: bigint): Promise<string> {
    const record = { ...sessionRecord(merchant, { createdAt: new Date(), lifetimeMinutes: 60 }), mode: 'live' as const };
    await insertSessionRecord(service.db.sql, record, 'confirming');
    const paymentId = paymentIdForSession(record.sessionId);
    await service.db
      .sql`insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
      values (${paymentId}, ${record.sessionId}, 'USDC', 'solana', 'deposit', ${amount.toString()}, ${amount.toString()}, 6)`;
    await insertPendingSettlement(service.db.sql, {
      paymentId,
      sessionId: record.sessionId,
      provider: TREASURY_PROVIDER,
      amountUsdcBaseUnits: amount.toString(),
    });
    return paymentId;
  }

  it("lists the live payouts past their merchant's daily limit; an approval, audited and idempotent, takes one off", async () => {
    const merchant = (await createTestMerchant(service.db.sql)).merchant.id;
    await insertTestPayout(service.db.sql, merchant, { status: 'confirmed', amount: 7_000_000n, mode: 'live', settlement: 'settled' });
    const over = await unwritten(merchant, 4_000_000n);
    const within = await unwritten((await createTestMerchant(service.db.sql)).merchant.id, 4_000_000n);
    const limit = { SETTLEMENT_DAILY_LIMIT_USDC: '10' };
    const listed = async () => {
      const run = await cli.run(['settlement', 'awaiting-approval', '--json'], limit);
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { daily_limit_usdc: string; payouts: Array<Record<string, string>> };
    };
    const before = await listed();
    expect(before.daily_limit_usdc).toBe('10.000000');
    expect(before.payouts.filter((p) => [over, within].includes(p.payment_id!))).toEqual([
      { payment_id: over, session_id: expect.any(String), merchant_id: merchant, amount_usdc: '4.000000', paid_in_window_usdc: '7.000000' },
    ]);

    const approved = await cli.run(['settlement', 'approve', '--payment', over, '--operator', 'alice', '--json']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ payment_id: over, operator: 'alice', already_approved: false });
    const again = await cli.run(['settlement', 'approve', '--payment', over, '--operator', 'bob', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ payment_id: over, operator: 'alice', already_approved: true });
    expect(await service.db.sql`select operator from payout_approvals where payment_id = ${over}`).toEqual([{ operator: 'alice' }]);
    expect((await listed()).payouts.map((p) => p.payment_id)).not.toContain(over);
  });

  it('refuses to approve an unknown payment or a test one', async () => {
    expectOneLineError(
      await cli.run(['settlement', 'approve', '--payment', 'pay_01HZZZZZZZZZZZZZZZZZZZZZZZ', '--operator', 'alice']),
      1,
      /payment pay_01HZZZZZZZZZZZZZZZZZZZZZZZ does not exist/,
    );
    expectOneLineError(
      await cli.run(['settlement', 'approve', '--payment', made.fresh!.paymentId, '--operator', 'alice']),
      1,
      /is a test payment: only live payouts are held for an approval/,
    );
    expect(await service.db.sql`select count(*)::int as n from payout_approvals where payment_id = ${made.fresh!.paymentId}`).toEqual([
      { n: 0 },
    ]);
  });
});
