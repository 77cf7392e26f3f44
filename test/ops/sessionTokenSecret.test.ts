// No session-token secret is a constant in the source. In production, or once a live key
// exists, the API refuses to start without a configured one; development generates one and keeps it.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env';
import { resolveSessionTokenSecret } from '../../api/sessionTokenSecret';
import { createApiKey, revokeApiKey } from '../../db/repositories/apiKeys';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant } from '../support/factories';

let db: TestDatabase;
let dir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(join(tmpdir(), 'session-secret-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await db?.drop();
});

const development = loadConfig({ APP_ENV: 'development' }, 'api');

describe('session-token secret at API start', () => {
  it('is generated once in development, kept owner-only in the data directory, and the same after a restart', async () => {
    const store = join(dir, 'session-token-secret');
    const first = await resolveSessionTokenSecret(development, db.sql, store);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect(await resolveSessionTokenSecret(development, db.sql, store)).toBe(first);
    const elsewhere = await resolveSessionTokenSecret(development, db.sql, undefined);
    expect(elsewhere).not.toBe(first);
  });

  it('is required in production', async () => {
    await expect(
      resolveSessionTokenSecret(
        loadConfig({ APP_ENV: 'production', TEMPORAL_API_KEY: 'key-from-cloud' }, 'api'),
        db.sql,
        join(dir, 'unused'),
      ),
    ).rejects.toThrow('SESSION_TOKEN_SECRET: is required when APP_ENV=production');
  });

  it('is required as soon as a live API key exists, and no longer once it is revoked', async () => {
    const { merchant } = await createTestMerchant(db.sql);
    const [live] = await db.sql<{ id: string }[]>`select id from api_keys where merchant_id = ${merchant.id} and mode = 'live'`;
    await expect(resolveSessionTokenSecret(development, db.sql, join(dir, 'live'))).rejects.toThrow(
      'SESSION_TOKEN_SECRET: is required once a live API key exists',
    );
    const configured = 'b5f0c3e9a17d4e2c8f6a0b9d3e7c1f4a';
    expect(await resolveSessionTokenSecret(loadConfig({ SESSION_TOKEN_SECRET: configured }, 'api'), db.sql, undefined)).toBe(configured);
    await revokeApiKey(db.sql, live!.id);
    await createApiKey(db.sql, merchant.id, 'test');
    expect(await resolveSessionTokenSecret(development, db.sql, undefined)).toMatch(/^[0-9a-f]{64}$/);
  });
});
