// The key of dashboard users' TOTP secrets at API start: configured in production or once a live key exists,
// otherwise generated and kept in the data directory; and the start-up pass that seals the secrets stored in plain
// text before sealing existed, once, under the right key only.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/env';
import { resolveTotpEncryptionKey, sealPlaintextTotpSecrets } from '../../api/totpEncryptionKey';
import { createSql, type Sql } from '../../db/client';
import { insertInvitedUser } from '../../db/repositories/merchantUsers';
import { insertMerchant } from '../../db/repositories/merchants';
import { ALL_TOKEN_CHAIN_PAIRS } from '../../domain/chains/chains';
import { isSealedTotpSecret, openTotpSecret, sealTotpSecret } from '../../domain/security/totpSecretSealing';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant } from '../support/factories';

let db: TestDatabase;
/** The API's own role: the pass runs with its rights at start. */
let apiSql: Sql;
let dir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  apiSql = createSql(db.urlAs('checkout_api'), { max: 2 });
  dir = mkdtempSync(join(tmpdir(), 'totp-key-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await apiSql?.end({ timeout: 5 });
  await db?.drop();
});

const development = loadConfig({ APP_ENV: 'development' }, 'api');

async function userWithSecret(email: string, stored: string | null): Promise<string> {
  const merchant = await insertMerchant(db.sql, { name: `Shop of ${email}`, supportedTokens: ALL_TOKEN_CHAIN_PAIRS });
  const user = (await insertInvitedUser(db.sql, merchant.id, email))!;
  await db.sql`update merchant_users set totp_secret = ${stored}, totp_enabled_at = now() where id = ${user.id}`;
  return user.id;
}

const storedSecret = async (userId: string) =>
  (await db.sql<{ totp_secret: string | null }[]>`select totp_secret from merchant_users where id = ${userId}`)[0]!.totp_secret;

describe('TOTP encryption key at API start', () => {
  it('is generated once in development, kept owner-only in the data directory, and the same after a restart', async () => {
    const store = join(dir, 'totp-encryption-key');
    const first = await resolveTotpEncryptionKey(development, db.sql, store);
    expect(first).toHaveLength(32);
    expect(Buffer.from(readFileSync(store, 'utf8').trim(), 'base64')).toEqual(first);
    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect(await resolveTotpEncryptionKey(development, db.sql, store)).toEqual(first);
    expect(await resolveTotpEncryptionKey(development, db.sql, undefined)).not.toEqual(first);
  });

  it('is the configured one when set, and required in production', async () => {
    const configured = randomBytes(32);
    const config = loadConfig({ TOTP_ENCRYPTION_KEY: configured.toString('hex') }, 'api');
    expect(await resolveTotpEncryptionKey(config, db.sql, join(dir, 'unused'))).toEqual(configured);
    const production = loadConfig({ APP_ENV: 'production', TEMPORAL_API_KEY: 'key-from-cloud' }, 'api');
    await expect(resolveTotpEncryptionKey(production, db.sql, join(dir, 'unused'))).rejects.toThrow(
      'TOTP_ENCRYPTION_KEY: is required when APP_ENV=production',
    );
  });

  it('seals the secrets stored in plain text in one pass, which a second run finds nothing left for', async () => {
    const key = randomBytes(32);
    const plainA = await userWithSecret('plain-a@example.com', 'JBSWY3DPEHPK3PXP');
    const plainB = await userWithSecret('plain-b@example.com', 'KRSXG5CTMVRXEZLU');
    const already = await userWithSecret('sealed@example.com', 'placeholder');
    const sealed = sealTotpSecret(key, already, 'GEZDGNBVGY3TQOJQ');
    await db.sql`update merchant_users set totp_secret = ${sealed} where id = ${already}`;
    const none = await userWithSecret('none@example.com', null);

    expect(await sealPlaintextTotpSecrets(apiSql, key)).toBe(2);
    for (const [userId, secret] of [
      [plainA, 'JBSWY3DPEHPK3PXP'],
      [plainB, 'KRSXG5CTMVRXEZLU'],
    ] as const) {
      const stored = (await storedSecret(userId))!;
      expect(isSealedTotpSecret(stored)).toBe(true);
      expect(openTotpSecret(key, userId, stored)).toBe(secret);
    }
    expect(await storedSecret(already)).toBe(sealed);
    expect(await storedSecret(none)).toBeNull();

    const afterFirst = await Promise.all([plainA, plainB].map(storedSecret));
    expect(await sealPlaintextTotpSecrets(apiSql, key)).toBe(0);
    expect(await Promise.all([plainA, plainB].map(storedSecret))).toEqual(afterFirst);

    // With another key the API stops, naming the variable, and seals nothing under it.
    const late = await userWithSecret('late@example.com', 'MFRGGZDFMZTWQ2LK');
    const wrong = sealPlaintextTotpSecrets(apiSql, randomBytes(32));
    await expect(wrong).rejects.toThrow(ConfigError);
    await expect(wrong).rejects.toThrow(/TOTP_ENCRYPTION_KEY: does not open the stored TOTP secrets/);
    expect(await storedSecret(late)).toBe('MFRGGZDFMZTWQ2LK');
    expect(await sealPlaintextTotpSecrets(apiSql, key)).toBe(1);
  });

  it('is required as soon as a live API key exists', async () => {
    await createTestMerchant(db.sql);
    await expect(resolveTotpEncryptionKey(development, db.sql, join(dir, 'live'))).rejects.toThrow(
      'TOTP_ENCRYPTION_KEY: is required once a live API key exists',
    );
  });
});
