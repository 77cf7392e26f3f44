// SIGTERM to the API process (bin/api.ts) while a request is in flight: the request still completes, new
// connections are refused, and the process exits 0 once it has closed its connections.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { freePort } from '../../toolchain/ports';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { startServiceProcess, type ServiceProcess } from '../support/serviceProcess';

describe('API process shutdown', () => {
  let db: TestDatabase;
  let merchant: TestMerchant;
  let api: ServiceProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    merchant = await createTestMerchant(db.sql);
  });
  afterAll(async () => {
    await api?.stop('SIGKILL');
    await db?.drop();
  });

  /** bin/api.ts on a free port, listening; `env` adds to its configuration. */
  async function startApi(env: Record<string, string> = {}): Promise<{ api: ServiceProcess; port: number }> {
    const port = await freePort();
    const started = startServiceProcess('bin/api.ts', {
      APP_ENV: 'test',
      PORT: String(port),
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE: `shutdown-${randomBytes(4).toString('hex')}`,
      SESSION_TOKEN_SECRET: randomBytes(32).toString('hex'),
      TOTP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'info',
      ...env,
    });
    api = started;
    await started.waitForLine((line) => line.includes('"api listening"'));
    return { api: started, port };
  }

  test('a request in flight at SIGTERM completes, then the process exits 0', async () => {
    const { api: running, port } = await startApi();

    // The request is under way (headers sent, body half-sent) when the signal arrives; its body finishes after.
    const body = JSON.stringify(sessionRequest(merchant.merchant.id));
    const half = Math.floor(body.length / 2);
    const response = new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/checkout/sessions',
          headers: {
            'content-type': 'application/json',
            'x-service-user-type': 'checkout',
            'x-api-key': merchant.testKey,
            'transfer-encoding': 'chunked',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, connection: res.headers.connection }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, half));
      running
        .waitForLine((line) => line.includes('"shutting down"'))
        .then(() => {
          setTimeout(() => req.end(body.slice(half)), 300);
        }, reject);
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const exitCode = running.stop('SIGTERM');

    await running.waitForLine((line) => line.includes('"shutting down"'));
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    const answered = await response;
    expect(answered.status, answered.body).toBe(201);
    expect(JSON.parse(answered.body).data.session_id).toMatch(/^cs_/);
    expect(answered.connection).toBe('close');
    expect(await exitCode).toBe(0);
  });

  test('with SHUTDOWN_DRAIN_MS, /readyz turns 503 at SIGTERM while requests are still served, then the process exits 0', async () => {
    const { api: running, port } = await startApi({ SHUTDOWN_DRAIN_MS: '3000' });
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    const exitCode = running.stop('SIGTERM');
    await running.waitForLine((line) => line.includes('"shutting down"'));
    const readiness = await fetch(`${base}/readyz`);
    expect(readiness.status).toBe(503);
    expect(await readiness.json()).toEqual({ error: 'Not ready: shutting down' });
    const session = await fetch(`${base}/checkout/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-user-type': 'checkout', 'x-api-key': merchant.testKey },
      body: JSON.stringify(sessionRequest(merchant.merchant.id)),
    });
    expect(session.status).toBe(201);
    expect(await exitCode).toBe(0);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });
});
