// checkout-admin session cancel: the operator's cancel goes through the session workflow (a worker runs
// here), which records it as the operator's and refuses what the API's cancel refuses. session start-unstarted:
// the workflows of sessions a failed create left without one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertSessionUnderCap } from '../../db/repositories/sessions';
import type { SessionRecord } from '../../domain/wire/session';
import { getStateQuery } from '../../workflows/messages';
import { adminCli, expectOneLineError } from '../support/adminCli';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { sessionRecord } from '../support/sessionRecords';
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
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: merchant.testKey,
    body: sessionRequest(merchant.merchant.id),
  });
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
    expectOneLineError(
      await cli.run(['session', 'cancel', sessionId]),
      1,
      new RegExp(`^error: session ${sessionId} was not cancelled: .*cannot be cancelled`),
    );
    expectOneLineError(
      await cli.run(['session', 'cancel', 'cs_01ARZ3NDEKTSV4RRFFQ69G5FAV']),
      1,
      /^error: session cs_01ARZ3NDEKTSV4RRFFQ69G5FAV does not exist$/,
    );
    expectOneLineError(await cli.run(['session', 'cancel', 'cs_nope']), 2, /^error: <cs_…>: Must be a session id/);
    expectOneLineError(await cli.run(['session', 'cancel']), 2, /^error: <cs_…>: Required/);
    expectOneLineError(await cli.run(['session', 'cancel', sessionId, 'extra']), 2, /^error: unexpected argument extra$/);
  });
});

describe('checkout-admin session start-unstarted', () => {
  /** A session row as a create leaves it when it fails after the write: pending, its workflow input kept, no workflow. */
  async function unstartedSession(options: { minutesAgo: number; lifetimeMinutes: number }): Promise<SessionRecord> {
    const record = sessionRecord(merchant.merchant.id, {
      createdAt: new Date(Date.now() - options.minutesAgo * 60_000),
      lifetimeMinutes: options.lifetimeMinutes,
    });
    expect(await insertSessionUnderCap(service.db.sql, record, 1_000_000)).toBe(true);
    return record;
  }
  const keptInput = async (sessionId: string) =>
    (await service.db.sql<{ kept: boolean }[]>`select pending_workflow_input is not null as kept from sessions where id = ${sessionId}`)[0]
      ?.kept;
  const statusOf = async (sessionId: string) =>
    (await service.db.sql<{ status: string }[]>`select status from sessions where id = ${sessionId}`)[0]?.status;

  it('starts the workflow of each, once; one past its expiry expires, a recent one is left to its create', async () => {
    const live = await unstartedSession({ minutesAgo: 30, lifetimeMinutes: 120 });
    const lapsed = await unstartedSession({ minutesAgo: 90, lifetimeMinutes: 60 });
    const recent = await unstartedSession({ minutesAgo: 1, lifetimeMinutes: 60 });

    const dry = await cli.json(['session', 'start-unstarted', '--dry-run']);
    expect((dry.sessions as { session_id: string; action: string }[]).map((s) => [s.session_id, s.action])).toEqual([
      [lapsed.sessionId, 'would be: workflow started'],
      [live.sessionId, 'would be: workflow started'],
    ]);
    expect(await keptInput(live.sessionId)).toBe(true);

    const out = await cli.json(['session', 'start-unstarted']);
    expect((out.sessions as { session_id: string; action: string }[]).map((s) => [s.session_id, s.action])).toEqual([
      [lapsed.sessionId, 'workflow started'],
      [live.sessionId, 'workflow started'],
    ]);
    expect(await keptInput(live.sessionId)).toBe(false);
    expect(await keptInput(recent.sessionId)).toBe(true);
    expect((await service.temporal.workflow.getHandle(live.sessionId).describe()).status.name).toBe('RUNNING');
    await expect.poll(() => statusOf(lapsed.sessionId), { timeout: 15_000 }).toBe('expired');
    expect(await statusOf(live.sessionId)).toBe('pending');

    expect(await cli.json(['session', 'start-unstarted'])).toEqual({ dry_run: false, sessions: [] });
    expect((await cli.json(['session', 'start-unstarted', '--older-than-minutes', '1'])).sessions).toMatchObject([
      { session_id: recent.sessionId, action: 'workflow started' },
    ]);
  });

  it('only clears the kept input of a session its workflow already moved on', async () => {
    const moved = await unstartedSession({ minutesAgo: 30, lifetimeMinutes: 60 });
    await service.db.sql`update sessions set status = 'cancelled' where id = ${moved.sessionId}`;
    const out = await cli.json(['session', 'start-unstarted']);
    expect(out.sessions).toMatchObject([{ session_id: moved.sessionId, status: 'cancelled', action: 'input cleared (workflow ran)' }]);
    expect(await keptInput(moved.sessionId)).toBe(false);
    await expect(service.temporal.workflow.getHandle(moved.sessionId).describe()).rejects.toThrow(/not found/i);
  });

  it('reports each session it could not start, keeps its input and exits 1', async () => {
    const stuck = await unstartedSession({ minutesAgo: 30, lifetimeMinutes: 60 });
    const run = await cli.run(['session', 'start-unstarted', '--json'], { TEMPORAL_NAMESPACE: 'no-such-namespace' });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr.trim()).toBe('warning: 1 of 1 could not be started or recorded; run the command again once the cause is fixed');
    const out = JSON.parse(run.stdout) as { sessions: { session_id: string; action: string }[] };
    expect(out.sessions).toMatchObject([
      { session_id: stuck.sessionId, action: expect.stringMatching(/^failed, nothing changed: .*no-such-namespace/) },
    ]);
    expect(await keptInput(stuck.sessionId)).toBe(true);
    expect((await cli.json(['session', 'start-unstarted'])).sessions).toMatchObject([
      { session_id: stuck.sessionId, action: 'workflow started' },
    ]);
  });

  it('says so when it started a workflow but could not record it, and records it when run again', async () => {
    const unrecorded = await unstartedSession({ minutesAgo: 30, lifetimeMinutes: 60 });
    // The write after the start fails for this session alone, as it would with the database lost in between.
    await service.db.sql.unsafe(`
      create function refuse_confirmation() returns trigger language plpgsql as $$
      begin raise exception 'confirmation refused by the test'; end $$;
      create trigger refuse_confirmation before update of pending_workflow_input on sessions
        for each row when (old.id = '${unrecorded.sessionId}') execute function refuse_confirmation();`);
    try {
      const run = await cli.run(['session', 'start-unstarted', '--json']);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr.trim()).toBe('warning: 1 of 1 could not be started or recorded; run the command again once the cause is fixed');
      const out = JSON.parse(run.stdout) as { sessions: { session_id: string; action: string }[] };
      expect(out.sessions).toMatchObject([
        {
          session_id: unrecorded.sessionId,
          action: expect.stringMatching(/^workflow started, not recorded: .*confirmation refused by the test/),
        },
      ]);
      expect((await service.temporal.workflow.getHandle(unrecorded.sessionId).describe()).status.name).toBe('RUNNING');
      expect(await keptInput(unrecorded.sessionId)).toBe(true);
    } finally {
      await service.db.sql.unsafe('drop trigger refuse_confirmation on sessions; drop function refuse_confirmation()');
    }
    expect((await cli.json(['session', 'start-unstarted'])).sessions).toMatchObject([
      { session_id: unrecorded.sessionId, action: 'workflow started' },
    ]);
    expect(await keptInput(unrecorded.sessionId)).toBe(false);
  });

  it('prints a table for a person, and refuses bad options in one line', async () => {
    const run = await cli.run(['session', 'start-unstarted']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('no unstarted sessions');
    expectOneLineError(await cli.run(['session', 'start-unstarted', '--limit', '0']), 2, /^error: --limit: /);
    expectOneLineError(
      await cli.run(['session', 'start-unstarted', '--older-than-minutes', 'ten']),
      2,
      /^error: --older-than-minutes: Must be a whole number/,
    );
  });
});
