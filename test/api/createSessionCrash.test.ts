// Create-session is idempotent per (merchant, mode, transaction_id) across a crash at any point. The API
// here runs on a Temporal client that dies once around the workflow start, as a process would: before the
// start reached Temporal, or after Temporal took it but before anyone answered. The merchant's retries
// must end with one session row, one workflow (whose id is the row's) and the same answer every time.
import type { Client, WorkflowStartOptions } from '@temporalio/client';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type RunningApi } from '../../api/server';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

type CrashPoint = 'before start' | 'after start';

interface StartCall {
  workflowId: string;
  /** Whether the session row was committed (visible to another connection) when the start was sent. */
  rowCommitted: boolean;
}

let service: TestService;
let merchant: TestMerchant;
const apis: RunningApi[] = [];

beforeAll(async () => {
  service = await startTestService();
  merchant = await createTestMerchant(service.db.sql);
});
afterAll(async () => {
  await Promise.all(apis.map((api) => api.close()));
  await service?.stop();
});

/** The service's own client, except that its first workflow start dies at `crash`. Every start is logged. */
function crashingClient(crash: CrashPoint, starts: StartCall[]): Client {
  const real = service.temporal;
  let crashed = false;
  const start = async (workflowType: string, options: WorkflowStartOptions) => {
    const [row] = await service.db.sql<{ n: number }[]>`select count(*)::int as n from sessions where id = ${options.workflowId}`;
    starts.push({ workflowId: options.workflowId, rowCommitted: row?.n === 1 });
    if (!crashed && crash === 'before start') {
      crashed = true;
      throw new Error('crashed before the start reached Temporal');
    }
    const handle = await real.workflow.start(workflowType, options);
    if (!crashed && crash === 'after start') {
      crashed = true;
      throw new Error('crashed after Temporal started the workflow');
    }
    return handle;
  };
  const workflow = new Proxy(real.workflow, {
    get: (target, property) => (property === 'start' ? start : Reflect.get(target, property)),
  });
  return new Proxy(real, { get: (target, property) => (property === 'workflow' ? workflow : Reflect.get(target, property)) });
}

async function apiCrashingAt(crash: CrashPoint, starts: StartCall[]): Promise<string> {
  const api = await startApiServer(
    {
      config: service.config,
      sql: service.db.sql,
      temporal: crashingClient(crash, starts),
      logger: pino({ level: 'silent' }),
      registry: service.registry,
      offer: service.offer,
    },
    '127.0.0.1',
    0,
  );
  apis.push(api);
  return api.url;
}

describe.each<CrashPoint>(['before start', 'after start'])('a crash %s, then the merchant retries', (crash) => {
  it('leaves one session row, one workflow with its id, and the same answer to every retry', async () => {
    const starts: StartCall[] = [];
    const baseUrl = await apiCrashingAt(crash, starts);
    const body = sessionRequest(merchant.merchant.id);
    const create = () => call(baseUrl, 'POST', '/checkout/sessions', { apiKey: merchant.testKey, body });

    const crashed = await create();
    expect(crashed).toMatchObject({
      status: 503,
      body: { error: 'The session could not be started; retry the request with the same transaction_id' },
    });
    const retried = await create();
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    const again = await create();
    expect(again.status).toBe(200);
    expect(again.body).toEqual(retried.body);

    const rows = await service.db.sql<{ id: string; pending: unknown }[]>`
      select s.id, s.pending_workflow_input as pending from sessions s join transactions t on t.session_id = s.id
      where t.merchant_id = ${merchant.merchant.id} and t.ext_transaction_id = ${body.transaction_id as string}`;
    expect(rows).toHaveLength(1);
    const sessionId = rows[0]?.id as string;
    expect(retried.body.data?.session_id).toBe(sessionId);
    // The start is confirmed, so later retries no longer touch Temporal.
    expect(rows[0]?.pending).toBeNull();
    // Every start was for that one session, each sent only after its row was committed.
    expect(starts.map((s) => s.workflowId)).toEqual([sessionId, sessionId]);
    expect(starts.every((s) => s.rowCommitted)).toBe(true);
    expect((await service.temporal.workflow.getHandle(sessionId).describe()).status.name).toBe('RUNNING');
  });
});

describe('a retry long after the session closed', () => {
  it('replays without starting the workflow again', async () => {
    const starts: StartCall[] = [];
    const baseUrl = await apiCrashingAt('after start', starts);
    const first = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id, { transaction_id: 'closed-1' }),
    });
    expect(first.status).toBe(201);
    const sessionId = first.body.data?.session_id as string;
    await service.temporal.workflow.getHandle(sessionId).terminate('test: the session is long over');
    const replay = await call(baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id, { transaction_id: 'closed-1' }),
    });
    expect(replay.status).toBe(200);
    expect(replay.body.data?.session_id).toBe(sessionId);
    expect(starts).toEqual([]);
  });
});
