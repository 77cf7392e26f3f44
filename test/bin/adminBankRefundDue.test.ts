// checkout-admin bank mark-received on a closed session: the transfer is never credited, but the money is in the
// merchant's account and owed back to the customer, so it is recorded as refund due, by the workflow while it still
// runs and by the CLI itself once the workflow has ended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankTransferReference } from '../../domain/session/bankTransfer';
import { adminCli } from '../support/adminCli';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let merchant: TestMerchant;
const cli = adminCli(() => service);

beforeAll(async () => {
  service = await startTestService();
  merchant = await createTestMerchant(service.db.sql);
});
afterAll(() => service?.stop());

const receipts = (sessionId: string) =>
  service.db.sql`select reference, amount_usd_cents::text, credited from bank_receipts where session_id = ${sessionId} order by reference`;

describe('checkout-admin bank mark-received on a closed session', () => {
  it('records the transfer as refund due, once per reference, never credited', async () => {
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id),
    });
    const sessionId = created.body.data?.session_id as string;
    const reference = bankTransferReference(sessionId);
    expect((await cli.run(['session', 'cancel', sessionId])).code).toBe(0);
    const mark = (ref: string) => ['bank', 'mark-received', '--session', sessionId, '--amount-usd', '42.50', '--reference', ref];

    // The cancelled session's workflow still runs until it wakes: it takes the signal and keeps the transfer for a refund.
    expect(await cli.json(mark(reference))).not.toHaveProperty('refund_due');
    await expect.poll(() => receipts(sessionId)).toEqual([{ reference, amount_usd_cents: '4250', credited: false }]);
    const workflow = service.temporal.workflow.getHandle(sessionId);
    await expect.poll(async () => (await workflow.describe()).status.name, { timeout: 15_000 }).toBe('COMPLETED');

    // Its workflow has ended: the CLI records the transfer itself.
    const run = await cli.run([...mark(`${reference}-2`), '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      session_id: sessionId,
      amount_usd_cents: '4250',
      refund_due: true,
      already_recorded: false,
    });
    expect(run.stderr).toContain(
      `session ${sessionId} is closed (cancelled): the transfer is not credited and is owed back to the customer`,
    );
    expect(await cli.json(mark(`${reference}-2`))).toMatchObject({ refund_due: true, already_recorded: true });

    expect(await receipts(sessionId)).toEqual([
      { reference, amount_usd_cents: '4250', credited: false },
      { reference: `${reference}-2`, amount_usd_cents: '4250', credited: false },
    ]);
    expect(await service.db.sql`select 1 from settlements where session_id = ${sessionId}`).toHaveLength(0);
  });
});
