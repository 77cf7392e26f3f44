// Issue 13 item 9: `settlement list | show` and `treasury status` as operators run them (a real child process),
// against payouts written by the payout code's own repositories: payout row, chain intent through its states,
// ledger postings and the settlements row, as treasuryPayout.ts and treasurySettlement.ts write them.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChainIntent, recordBroadcast, recordLanded, recordSigned, recordSuperseded } from '../../db/repositories/chainIntents';
import { postLedger } from '../../db/repositories/ledger';
import { insertPayout, setPayoutStatus, type PayoutStatus } from '../../db/repositories/payouts';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { payoutIntentId } from '../../domain/chainIntent';
import { paymentIdForSession } from '../../domain/ids';
import { payoutConfirmed, payoutReleased, payoutReserved } from '../../domain/ledger';
import type { Mode } from '../../domain/session';
import { adminCli, expectOneLineError } from '../support/adminCli';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';
import { startTestService, type TestService } from '../support/service';

const WALLET = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
const TREASURY = { test: 'TestTreasury1111111111111111111111111111111', live: 'LiveTreasury1111111111111111111111111111111' } as const;

let service: TestService;
let merchantId: string;
const cli = adminCli(() => service);

const signature = () => randomBytes(32).toString('hex');

interface Made {
  paymentId: string;
  sessionId: string;
  signature: string | null;
  superseded: string | null;
}

/** A payment and its payout, moved to `status` the way the payout activity moves it. */
async function payout(options: { status: PayoutStatus; amount: bigint; mode?: Mode; ageMinutes?: number; settlement?: 'pending' | 'settled' }): Promise<Made> {
  const sql = service.db.sql;
  const mode = options.mode ?? 'test';
  const record = { ...sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 }), mode };
  await insertSessionRecord(sql, record, 'confirming');
  const paymentId = paymentIdForSession(record.sessionId);
  await sql`insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
            values (${paymentId}, ${record.sessionId}, 'USDC', 'solana', 'deposit', ${options.amount.toString()}, ${options.amount.toString()}, 6)`;
  const intentId = payoutIntentId(paymentId);
  const row = { paymentId, merchantId, mode, amount: options.amount, mint: 'Mint1111', treasury: TREASURY[mode], merchantWallet: WALLET, intentId };
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
  if (options.ageMinutes) await sql`update payouts set created_at = now() - make_interval(mins => ${options.ageMinutes}) where payment_id = ${paymentId}`;
  if (options.settlement) {
    const settled = options.settlement === 'settled';
    await sql`insert into settlements (payment_id, session_id, provider, reference, amount_usdc_base_units, status, settled_at)
              values (${paymentId}, ${record.sessionId}, 'solana-treasury', ${settled ? current : null}, ${options.amount.toString()}, ${options.settlement}, ${settled ? new Date() : null})`;
  }
  return { paymentId, sessionId: record.sessionId, signature: current, superseded };
}

const made: Record<string, Made> = {};

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

type Listed = { payment_id: string; session_id: string; mode: string; amount_usdc: string; status: string; age_seconds: number; signature: string | null };

describe('checkout-admin settlement list', () => {
  it('lists every payout newest first with session, mode, exact USDC amount, status, age and signature', async () => {
    const out = (await cli.json(['settlement', 'list'])) as { payouts: Listed[] };
    expect(out.payouts.map((p) => p.payment_id).sort()).toEqual(Object.values(made).map((m) => m.paymentId).sort());
    expect(out.payouts[0]!.payment_id).toBe(made.short!.paymentId);
    expect(out.payouts.find((p) => p.payment_id === made.confirmed!.paymentId)).toMatchObject({
      session_id: made.confirmed!.sessionId,
      mode: 'test',
      amount_usdc: '25.500000',
      status: 'confirmed',
      signature: made.confirmed!.signature,
    });
    expect(out.payouts.find((p) => p.payment_id === made.oldSubmitted!.paymentId)).toMatchObject({ amount_usdc: '2.000001', status: 'submitted' });
    expect(out.payouts.find((p) => p.payment_id === made.oldSubmitted!.paymentId)!.age_seconds).toBeGreaterThanOrEqual(600);

    const limited = (await cli.json(['settlement', 'list', '--limit', '2'])) as { payouts: Listed[] };
    expect(limited.payouts).toHaveLength(2);
  });

  it('--stuck keeps what an operator must look at: short of liquidity, failed, or not confirmed after two minutes', async () => {
    const out = (await cli.json(['settlement', 'list', '--stuck'])) as { payouts: Listed[]; stuck_after_seconds: number };
    expect(out.stuck_after_seconds).toBe(120);
    expect(out.payouts.map((p) => p.payment_id).sort()).toEqual([made.oldSubmitted!, made.short!, made.failed!].map((m) => m.paymentId).sort());

    const text = await cli.run(['settlement', 'list', '--stuck']);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^PAYMENT\s+SESSION\s+MODE\s+AMOUNT USDC\s+STATUS\s+AGE\s+SIGNATURE$/);
    expect(lines).toHaveLength(4);
    expect(text.stdout).toMatch(new RegExp(`${made.failed!.paymentId}\\s+${made.failed!.sessionId}\\s+live\\s+4\\.000000\\s+failed\\s+5m\\s+${made.failed!.signature}`));
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
      chain_intent: { id: `payout:${m.paymentId}`, status: 'broadcast', signature: m.signature, superseded_signatures: [m.superseded], last_valid_block_height: '1000', error: null },
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
    const out = (await cli.json(['treasury', 'status'])) as { modes: Array<Record<string, unknown>> };
    expect(out.modes).toEqual([
      {
        mode: 'test',
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
        treasuries: [TREASURY.live],
        reserved_usdc: '0.000000',
        reserved_base_units: '0',
        waiting: [{ status: 'failed', count: 1, amount_usdc: '4.000000', oldest_age_seconds: expect.any(Number) }],
      },
    ]);
    const submitted = (out.modes[0]!.waiting as Array<{ status: string; oldest_age_seconds: number }>).find((w) => w.status === 'submitted')!;
    expect(submitted.oldest_age_seconds).toBeGreaterThanOrEqual(600);

    const text = await cli.run(['treasury', 'status']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`test: treasury ${TREASURY.test}; 6.000001 USDC reserved by unconfirmed payouts`);
    expect(text.stdout).toMatch(/ {2}submitted\s+2\s+3\.000001\s+10m/);
  });
});
