// /healthz, /readyz and /metrics of the API: the public port says only ready or not, the internal listener
// names the dependency that failed and serves /metrics; request durations are labelled by
// the matched route pattern, never by the raw URL; sessions are counted by status on scrape.
import { Client, Connection } from '@temporalio/client';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApiServer, type RunningApi } from '../../api/server';
import { createSql } from '../../db/client';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

describe('health, readiness and metrics', () => {
  let service: TestService;
  let merchant: TestMerchant;
  let broken: RunningApi;
  let brokenConnection: Connection;
  const brokenSql = createSql('postgres://nobody:nothing@127.0.0.1:1/none', { max: 1 });

  beforeAll(async () => {
    service = await startTestService({ worker: false });
    merchant = await createTestMerchant(service.db.sql);
    // Nothing listens on port 1: both dependencies refuse at once.
    brokenConnection = Connection.lazy({ address: '127.0.0.1:1' });
    const temporal = new Client({ connection: brokenConnection });
    broken = await startApiServer(
      {
        config: service.config,
        sql: brokenSql,
        temporal,
        logger: pino({ level: 'silent' }),
        registry: service.registry,
        offer: service.offer,
      },
      '127.0.0.1',
      0,
    );
  });
  afterAll(async () => {
    await broken?.close();
    await brokenConnection?.close().catch(() => undefined);
    await brokenSql.end({ timeout: 1 });
    await service?.stop();
  });

  test('/healthz answers while the process runs, whatever its dependencies', async () => {
    for (const url of [service.baseUrl, broken.url]) {
      expect(await call(url, 'GET', '/healthz', { headers: {} })).toMatchObject({ status: 200, body: { data: { status: 'ok' } } });
    }
  });

  test('/readyz is 200 with Postgres and Temporal reachable, 503 otherwise; only the internal listener names which', async () => {
    expect(await call(service.baseUrl, 'GET', '/readyz', { headers: {} })).toMatchObject({
      status: 200,
      body: { data: { status: 'ready' } },
    });
    expect(await (await fetch(`${service.internalUrl}/readyz`)).json()).toEqual({
      data: { status: 'ready', checks: { postgres: 'ok', temporal: 'ok' } },
    });
    const down = await call(broken.url, 'GET', '/readyz', { headers: {} });
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ error: 'Not ready' });
    const detailed = await fetch(`${broken.internalUrl}/readyz`);
    expect(detailed.status).toBe(503);
    expect(await detailed.json()).toEqual({
      error: 'Not ready: postgres, temporal unreachable',
      details: { checks: { postgres: expect.any(String), temporal: expect.any(String) } },
    });
  });

  test('/metrics: durations by route pattern and status, sessions by status and mode', async () => {
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id),
    });
    expect(created.status).toBe(201);
    const sessionId = created.body.data?.session_id as string;
    expect((await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: merchant.testKey })).status).toBe(200);
    expect((await call(service.baseUrl, 'GET', '/no/such/path', { apiKey: merchant.testKey })).status).toBe(404);

    const response = await fetch(`${service.internalUrl}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(
      /checkout_http_request_duration_seconds_count\{method="GET",route="\/checkout\/sessions\/:session_id",status="200"\} 1\n/,
    );
    expect(text).toMatch(/checkout_http_request_duration_seconds_count\{method="POST",route="\/checkout\/sessions",status="201"\} 1\n/);
    expect(text).toMatch(/checkout_http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} 1\n/);
    expect(text).not.toContain(sessionId);
    expect(text).toMatch(/checkout_sessions\{status="pending",mode="test"\} 1\n/);
    expect(text).toMatch(/checkout_sessions\{status="completed",mode="live"\} 0\n/);
    expect(text).toMatch(/process_resident_memory_bytes \d+/);
    // Not on the public port: it carries business counts.
    expect((await fetch(`${service.baseUrl}/metrics`)).status).toBe(404);
  });
});
