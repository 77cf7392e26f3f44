// checkout-admin session cancel: the operator's cancel goes through the session workflow (a worker runs
// here), which records it as the operator's and refuses what the API's cancel refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getStateQuery } from '../../workflows/messages';
import { adminCli, expectOneLineError } from '../support/adminCli';
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

async function createSession(): Promise<string> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey: merchant.testKey, body: sessionRequest(merchant.merchant.id) });
  expect(created.status).toBe(201);
  return created.body.data?.session_id as string;
}

describe('checkout-admin session cancel', () => {
  it('cancels a pending session as the operator, with the reason in its history', async () => {
    const sessionId = await createSession();
    const out = await cli.json(['session', 'cancel', sessionId, '--reason', 'fraud report']);
    expect(out).toMatchObject({ session_id: sessionId, previous_status: 'pending', status: 'cancelled', reason: 'fraud report' });
    const got = await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: merchant.testKey });
    expect(got.body.data?.status).toBe('cancelled');
    const state = await service.temporal.workflow.getHandle(sessionId).query(getStateQuery);
    expect(state.transitions.at(-1)).toMatchObject({ status: 'cancelled', reason: 'cancelled by operator: fraud report' });
  });

  it('prints what happened for a person, without --reason', async () => {
    const sessionId = await createSession();
    const run = await cli.run(['session', 'cancel', sessionId]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`session ${sessionId} cancelled (was pending)`);
  });

  it('refuses a closed session in one line, and an unknown or malformed one', async () => {
    const sessionId = await createSession();
    expect((await cli.run(['session', 'cancel', sessionId])).code).toBe(0);
    expectOneLineError(await cli.run(['session', 'cancel', sessionId]), 1, new RegExp(`^error: session ${sessionId} was not cancelled: .*cannot be cancelled`));
    expectOneLineError(await cli.run(['session', 'cancel', 'cs_01ARZ3NDEKTSV4RRFFQ69G5FAV']), 1, /^error: session cs_01ARZ3NDEKTSV4RRFFQ69G5FAV does not exist$/);
    expectOneLineError(await cli.run(['session', 'cancel', 'cs_nope']), 2, /^error: <cs_…>: Must be a session id/);
    expectOneLineError(await cli.run(['session', 'cancel']), 2, /^error: <cs_…>: Required/);
    expectOneLineError(await cli.run(['session', 'cancel', sessionId, 'extra']), 2, /^error: unexpected argument extra$/);
  });
});
