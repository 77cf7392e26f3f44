// checkout-admin refund (real CLI processes): the list and its filters, one refund with its payment and its ledger
// postings in words, the stuck ones (claimed over an hour ago, payment not landed), and cancel, which moves the row
// and signals the refund's workflow, and refuses once the signer wrote its payment. ledger explain of a session shows
// its refunds' postings, which name neither the session nor its payment. An automatic refund the operator cancels hands
// its money to operator_held, and reissue gives it back to the customer as a new refund, once.
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postLedger } from '../../db/repositories/ledger';
import { findRefund } from '../../db/repositories/refunds';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { ACCOUNT, ASSET } from '../../domain/ledger/ledger';
import { refundWorkflowId } from '../../domain/refunds/refundPayment';
import { adminCli, expectOneLineError } from '../support/adminCli';
import { createTestMerchant } from '../support/factories';
import { CUSTOMER_WALLET, insertLateDeposit, insertTestRefund } from '../support/refunds';
import { startTestService, type TestService } from '../support/service';
import { sessionRecord } from '../support/sessionRecords';

let service: TestService;
const cli = adminCli(() => service);
const shop = { merchantId: '', sessionId: '', otherSessionId: '' };
let otherMerchant = '';

async function newSession(merchantId: string): Promise<string> {
  const record = sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 });
  await insertSessionRecord(service.db.sql, record, 'completed');
  return record.sessionId;
}

beforeAll(async () => {
  service = await startTestService({ worker: false });
  shop.merchantId = (await createTestMerchant(service.db.sql)).merchant.id;
  otherMerchant = (await createTestMerchant(service.db.sql)).merchant.id;
  shop.sessionId = await newSession(shop.merchantId);
  shop.otherSessionId = await newSession(shop.merchantId);
});
afterAll(() => service?.stop());

type RefundJson = { refund_id: string; status: string; session_id: string; amount_usd: string; payout: { signature: string } | null };
const ids = (out: Record<string, unknown>) => (out.refunds as RefundJson[]).map((r) => r.refund_id);

describe('checkout-admin refund list and show', { timeout: 120_000 }, () => {
  it('lists refunds newest first, narrowed by merchant, status and session', async () => {
    const first = await insertTestRefund(service.db.sql, shop, { amountUsdMicros: 2_500_000n, ageMinutes: 30 });
    const paid = await insertTestRefund(service.db.sql, shop, { status: 'completed', payout: 'confirmed', ageMinutes: 20 });
    const elsewhere = await insertTestRefund(
      service.db.sql,
      { merchantId: shop.merchantId, sessionId: shop.otherSessionId },
      { ageMinutes: 10 },
    );
    const otherSession = await newSession(otherMerchant);
    const foreign = await insertTestRefund(service.db.sql, { merchantId: otherMerchant, sessionId: otherSession });

    expect(ids(await cli.json(['refund', 'list', '--merchant', shop.merchantId]))).toEqual([elsewhere.id, paid.id, first.id]);
    expect(ids(await cli.json(['refund', 'list', '--merchant', shop.merchantId, '--status', 'completed']))).toEqual([paid.id]);
    expect(ids(await cli.json(['refund', 'list', '--session', shop.sessionId]))).toEqual([paid.id, first.id]);
    expect(ids(await cli.json(['refund', 'list', '--merchant', otherMerchant]))).toEqual([foreign.id]);
    const listed = (await cli.json(['refund', 'list', '--session', shop.sessionId])).refunds as RefundJson[];
    expect(listed[1]).toMatchObject({ refund_id: first.id, status: 'pending_claim', amount_usd: '2.500000', payout: null });
    expect(listed[0]!.payout?.signature).toMatch(/^[0-9a-f]{64}$/);

    const text = await cli.run(['refund', 'list', '--session', shop.sessionId]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(`^${paid.id}\\s+test\\s+${shop.merchantId}\\s+${shop.sessionId}\\s+merchant\\s+completed\\s+1\\.000000`, 'm'),
    );
    expect(text.stdout).toContain(`${CUSTOMER_WALLET} (USDC on solana)`);
    expectOneLineError(await cli.run(['refund', 'list', '--status', 'lost']), 2, /^error: --status: /);
  });

  it("shows one refund with the signer's payment and its ledger postings, each group in words", async () => {
    const refund = await insertTestRefund(service.db.sql, shop, { status: 'completed', payout: 'confirmed', reason: 'damaged' });
    const post = (suffix: string, debit: string, credit: string, amount: bigint) =>
      postLedger(service.db.sql, {
        groupId: `refund:${refund.id}:${suffix}`,
        mode: 'test',
        reference: `refund:${refund.id}`,
        entries: [
          { account: debit, asset: ASSET.usdcSolana, amount },
          { account: credit, asset: ASSET.usdcSolana, amount: -amount },
        ],
      });
    await post('reserve', ACCOUNT.merchantReceivable(shop.merchantId), ACCOUNT.refundsInFlight, 1_000_000n);
    await post('sent', ACCOUNT.refundsInFlight, ACCOUNT.treasury, 1_000_000n);

    const out = (await cli.json(['refund', 'show', refund.id])) as Record<string, unknown> & {
      groups: { group_id: string; meaning: string | null }[];
      holdings: { account: string; amount: string }[];
    };
    expect(out).toMatchObject({
      refund_id: refund.id,
      status: 'completed',
      reason: 'damaged',
      destination: { chain: 'solana', token: 'USDC', address: CUSTOMER_WALLET },
      payout: { status: 'confirmed', amount_base_units: '990000', fee_base_units: '10000', intent_id: `refund:${refund.id}` },
    });
    expect(out.groups).toEqual([
      { group_id: `refund:${refund.id}:reserve`, meaning: expect.stringMatching(/reserved for its payment/) },
      { group_id: `refund:${refund.id}:sent`, meaning: expect.stringMatching(/left the treasury for the customer/) },
    ]);
    expect(out.holdings).toEqual([
      { asset: 'usdc:solana', account: ACCOUNT.merchantReceivable(shop.merchantId), amount: '1000000' },
      { asset: 'usdc:solana', account: 'treasury:solana', amount: '-1000000' },
    ]);

    const text = await cli.run(['refund', 'show', refund.id]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^payment\s+confirmed, 0\.990000 USDC on solana to \S+, fee 0\.010000, intent refund:ref_\S+, [0-9a-f]{64}$/m,
    );
    expect(text.stdout).toMatch(new RegExp(`refund:${refund.id}:sent\\s+refunds_in_flight\\s+usdc:solana\\s+1\\.000000`));
    expect(text.stdout).toMatch(new RegExp(`refund:${refund.id}:sent\\s+refund ${refund.id} paid: the USDC left the treasury`));

    // The session's ledger explanation includes them, though they name neither the session nor its payment.
    const explained = (await cli.json(['ledger', 'explain', shop.sessionId])) as { groups: { group_id: string }[] };
    expect(explained.groups.map((g) => g.group_id)).toEqual([`refund:${refund.id}:reserve`, `refund:${refund.id}:sent`]);

    expectOneLineError(await cli.run(['refund', 'show', 'ref_01HZZZZZZZZZZZZZZZZZZZZZZZ']), 1, /no refund ref_01HZZZZZZZZZZZZZZZZZZZZZZZ/);
    expectOneLineError(await cli.run(['refund', 'show', 'pay_01HZZZZZZZZZZZZZZZZZZZZZZZ']), 2, /Must be a refund id/);
  });
});

describe('checkout-admin refund stuck', { timeout: 120_000 }, () => {
  it('lists refunds claimed over an hour ago whose payment has not landed, oldest first', async () => {
    const sql = service.db.sql;
    const unpaid = await insertTestRefund(sql, shop, { status: 'claimed', ageMinutes: 180 });
    const submitted = await insertTestRefund(sql, shop, { status: 'submitted', payout: 'submitted', ageMinutes: 90 });
    const landed = await insertTestRefund(sql, shop, { status: 'submitted', payout: 'confirmed', ageMinutes: 120 });
    const recent = await insertTestRefund(sql, shop, { status: 'claimed', ageMinutes: 10 });
    const unclaimed = await insertTestRefund(sql, shop, { ageMinutes: 600 });

    const stuck = ids(await cli.json(['refund', 'stuck']));
    expect(stuck.filter((id) => [unpaid.id, submitted.id, landed.id, recent.id, unclaimed.id].includes(id))).toEqual([
      unpaid.id,
      submitted.id,
    ]);
    expect(ids(await cli.json(['refund', 'stuck', '--older-than', '5']))).toContain(recent.id);
    const text = await cli.run(['refund', 'stuck']);
    expect(text.stdout).toMatch(
      new RegExp(
        `^${submitted.id}\\s+test\\s+${shop.merchantId}\\s+submitted\\s+1\\.000000\\s+\\S+\\s+1h30m\\s+submitted\\s+[0-9a-f]{64}$`,
        'm',
      ),
    );
    expect(text.stdout).toMatch(new RegExp(`^${unpaid.id}\\s+.*\\s+3h\\d*m?\\s+none\\s+-$`, 'm'));
  });
});

describe('checkout-admin refund cancel', { timeout: 120_000 }, () => {
  it("cancels a refund waiting for its claim and signals its workflow 'refundCancelled'", async () => {
    const refund = await insertTestRefund(service.db.sql, shop);
    // A run no worker picks up: its history still records every signal sent to it.
    const handle = await service.temporal.workflow.start('refundWorkflow', {
      workflowId: refundWorkflowId(refund.id),
      taskQueue: `no-worker-${randomBytes(4).toString('hex')}`,
      args: [{ refundId: refund.id, mode: 'test' }],
    });
    try {
      const out = await cli.json(['refund', 'cancel', refund.id, '--reason', 'order kept after all']);
      expect(out).toEqual({
        refund_id: refund.id,
        previous_status: 'pending_claim',
        status: 'cancelled',
        already_cancelled: false,
        reason: 'order kept after all',
      });
      expect(await findRefund(service.db.sql, refund.id)).toMatchObject({ status: 'cancelled', statusReason: 'order kept after all' });
      const history = await handle.fetchHistory();
      const signals = (history.events ?? []).flatMap((e) => {
        const signalled = e.workflowExecutionSignaledEventAttributes;
        return signalled
          ? [{ name: signalled.signalName, input: (signalled.input?.payloads ?? []).map((p) => defaultPayloadConverter.fromPayload(p)) }]
          : [];
      });
      expect(signals).toEqual([{ name: 'refundCancelled', input: [] }]);
    } finally {
      await handle.terminate('test over');
    }

    // Again: nothing changes, nothing is signalled.
    expect(await cli.json(['refund', 'cancel', refund.id])).toMatchObject({ already_cancelled: true, reason: null });
  });

  it('cancels a claimed refund whose workflow is not running, with a warning', async () => {
    const refund = await insertTestRefund(service.db.sql, shop, { status: 'claimed' });
    const run = await cli.run(['refund', 'cancel', refund.id]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`refund ${refund.id} cancelled (was claimed): cancelled by the operator\n`);
    expect(run.stderr).toBe(
      `warning: workflow ${refundWorkflowId(refund.id)} is not running: the row is cancelled, nothing else was told\n`,
    );
    expect((await findRefund(service.db.sql, refund.id))?.status).toBe('cancelled');
  });

  it('refuses once the signer wrote its payment, or the refund ended, and changes nothing', async () => {
    const writing = await insertTestRefund(service.db.sql, shop, { status: 'claimed', payout: 'pending' });
    expectOneLineError(await cli.run(['refund', 'cancel', writing.id]), 1, /was not cancelled: the signer has written its payment/);
    expect((await findRefund(service.db.sql, writing.id))?.status).toBe('claimed');
    const expired = await insertTestRefund(service.db.sql, shop, { status: 'expired' });
    expectOneLineError(await cli.run(['refund', 'cancel', expired.id]), 1, /A refund that is expired cannot be cancelled/);
    expectOneLineError(
      await cli.run(['refund', 'cancel', 'ref_01HZZZZZZZZZZZZZZZZZZZZZZZ']),
      1,
      /no refund ref_01HZZZZZZZZZZZZZZZZZZZZZZZ/,
    );
    const rows = await service.db.sql<{ outcome: string; error: string }[]>`
      select outcome, error from admin_audit_events where action = 'refund.cancel' and arguments->>'refund' = ${writing.id}`;
    expect(rows).toEqual([{ outcome: 'refused', error: expect.stringMatching(/the signer has written its payment/) }]);
  });
});

/** A late deposit of the session, owed back to its customer (refund_due), and its automatic refund. */
async function lateDepositRefund(status?: 'failed' | 'cancelled' | 'expired') {
  const deposit = await insertLateDeposit(service.db.sql, shop.sessionId, 2_000_000n);
  const { txHash } = deposit;
  await postLedger(service.db.sql, {
    groupId: `deposit:base:${txHash}:0`,
    mode: 'test',
    reference: `deposit:base:${txHash}:0`,
    entries: [
      { account: 'deposits:base', asset: 'usdc:base', amount: 2_000_000n },
      { account: ACCOUNT.refundDue('base'), asset: 'usdc:base', amount: -2_000_000n },
    ],
  });
  return insertTestRefund(service.db.sql, shop, {
    deposit,
    amountUsdMicros: 2_000_000n,
    ...(status ? { status } : {}),
  });
}

const postedBy = (reference: string) => service.db.sql<{ group_id: string; account: string; amount: string }[]>`
  select group_id, account, amount::text from ledger_entries where reference = ${reference} order by group_id, account`;

describe('checkout-admin refund cancel and reissue of an automatic refund', { timeout: 120_000 }, () => {
  it("hands a cancelled automatic refund's money to the operator, and reissues it to the customer once", async () => {
    const refund = await lateDepositRefund();
    expect(await cli.json(['refund', 'cancel', refund.id, '--reason', 'customer asked to wait'])).toMatchObject({ status: 'cancelled' });
    expect(await postedBy(`refund:${refund.id}`)).toEqual([
      { group_id: `refund:${refund.id}:cancelled`, account: 'operator_held:base', amount: '-2000000' },
      { group_id: `refund:${refund.id}:cancelled`, account: 'refund_due:base', amount: '2000000' },
    ]);

    const out = await cli.json(['refund', 'reissue', refund.id]);
    const reissuedAs = out.reissued_as as string;
    try {
      expect(out).toMatchObject({ refund_id: refund.id, already_reissued: false, status: 'pending_claim', amount_base_units: '2000000' });
      expect(await findRefund(service.db.sql, reissuedAs)).toMatchObject({
        status: 'pending_claim',
        source: 'late_deposit',
        deposit: refund.deposit,
        generation: 2,
        reissueOf: refund.id,
        reason: `reissue of ${refund.id}`,
      });
      expect(await postedBy(`refund:${reissuedAs}`)).toEqual([
        { group_id: `refund:${reissuedAs}:reissued`, account: 'operator_held:base', amount: '2000000' },
        { group_id: `refund:${reissuedAs}:reissued`, account: 'refund_due:base', amount: '-2000000' },
      ]);
      expect((await service.temporal.workflow.getHandle(refundWorkflowId(reissuedAs)).describe()).status.name).toBe('RUNNING');

      // Again: the reissue stands, nothing new is opened or posted.
      expect(await cli.json(['refund', 'reissue', refund.id])).toMatchObject({ reissued_as: reissuedAs, already_reissued: true });
      const [count] = await service.db.sql<{ n: number }[]>`select count(*)::int as n from refunds where reissue_of = ${refund.id}`;
      expect(count?.n).toBe(1);
    } finally {
      await service.temporal.workflow.getHandle(refundWorkflowId(reissuedAs)).terminate('test over');
    }
  });

  it('hands over a failed refund that ended before its money was handed over, then reissues it', async () => {
    const refund = await lateDepositRefund('failed');
    const reissuedAs = (await cli.json(['refund', 'reissue', refund.id])).reissued_as as string;
    await service.temporal.workflow.getHandle(refundWorkflowId(reissuedAs)).terminate('test over');
    expect((await postedBy(`refund:${refund.id}`)).map((e) => e.group_id)).toEqual([
      `refund:${refund.id}:failed`,
      `refund:${refund.id}:failed`,
    ]);
    const [due] = await service.db.sql<{ amount: string }[]>`
      select coalesce(sum(amount), 0)::text as amount from ledger_entries
      where account = 'refund_due:base' and reference in (${`refund:${refund.id}`}, ${`refund:${reissuedAs}`})`;
    expect(due?.amount).toBe('0');
  });

  it("refuses a refund still under way, a merchant's refund and an unknown one, changing nothing", async () => {
    const open = await lateDepositRefund();
    expectOneLineError(await cli.run(['refund', 'reissue', open.id]), 1, /is pending claim: only one that ended unpaid/);
    const merchants = await insertTestRefund(service.db.sql, shop, { status: 'failed' });
    expectOneLineError(await cli.run(['refund', 'reissue', merchants.id]), 1, /is a merchant's: the merchant creates another/);
    expectOneLineError(
      await cli.run(['refund', 'reissue', 'ref_01HZZZZZZZZZZZZZZZZZZZZZZZ']),
      1,
      /no refund ref_01HZZZZZZZZZZZZZZZZZZZZZZZ/,
    );
    const [count] = await service.db.sql<{ n: number }[]>`
      select count(*)::int as n from refunds where reissue_of in (${open.id}, ${merchants.id})`;
    expect(count?.n).toBe(0);
    expect(await postedBy(`refund:${open.id}`)).toEqual([]);
  });
});

describe('checkout-admin refund open-missing', { timeout: 120_000 }, () => {
  it('opens the refund of a deposit marked late after its workflow ended and starts its workflow, once; --dry-run only lists it', async () => {
    const record = sessionRecord(shop.merchantId, { createdAt: new Date(), lifetimeMinutes: 60 });
    await insertSessionRecord(service.db.sql, record, 'expired');
    const txHash = `0x${randomBytes(32).toString('hex')}`;
    await service.db.sql`
      insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address,
                            block_number, block_hash, stage, confirmations, credited, late)
      values ('base', ${txHash}, 0, 'testnet', ${record.sessionId}, 'USDC', 4000000, '0xpayer', '0xdeposit', 10, '0xbh', 'confirmed', 64,
              false, true)`;
    const refundsOfDeposit = () => service.db.sql`select id, source, status from refunds where deposit_tx_hash = ${txHash}`;

    const dry = await cli.json(['refund', 'open-missing', '--mode', 'test', '--dry-run']);
    expect(dry).toEqual({
      dry_run: true,
      deposits: [
        {
          mode: 'test',
          session_id: record.sessionId,
          chain: 'base',
          tx_hash: txHash,
          log_index: 0,
          token: 'USDC',
          amount_base_units: '4000000',
        },
      ],
    });
    expect(await refundsOfDeposit()).toEqual([]);

    const run = await cli.run(['refund', 'open-missing']);
    expect(run.code, run.stderr).toBe(0);
    const [refund] = await refundsOfDeposit();
    expect(refund).toEqual({ id: expect.stringMatching(/^ref_/), source: 'late_deposit', status: 'pending_claim' });
    expect(run.stdout).toMatch(/^1 refund opened, each workflow started\n/);
    expect(run.stdout).toMatch(
      new RegExp(`^${refund!.id}\\s+test\\s+${record.sessionId}\\s+late_deposit\\s+${txHash}:0 on base\\s+4\\.000000`, 'm'),
    );
    const handle = service.temporal.workflow.getHandle(refundWorkflowId(refund!.id as string));
    try {
      expect((await handle.describe()).status.name).toBe('RUNNING');
      expect(await cli.json(['refund', 'open-missing', '--mode', 'test'])).toEqual({ dry_run: false, refunds: [] });
      expect(await refundsOfDeposit()).toHaveLength(1);
    } finally {
      await handle.terminate('test over');
    }
  });
});
