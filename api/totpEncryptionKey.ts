// The API's key for dashboard users' TOTP secrets (TOTP_ENCRYPTION_KEY), resolved at start as the session-token
// secret is (api/keptSecret.ts), and the start-up pass that seals the secrets stored in plain text before sealing
// existed. A migration cannot seal them: the key is never in the database, and migrate never holds it.
import { randomBytes } from 'node:crypto';
import type { Queryable, Sql } from '../db/client';
import { ConfigError, type Config } from '../config/env';
import { openTotpSecret, parseTotpEncryptionKey, sealTotpSecret, TotpSecretUnreadableError } from '../domain/security/totpSecretSealing';
import { keptSecret, liveApiKeyExists } from './keptSecret';

export async function resolveTotpEncryptionKey(
  config: Pick<Config, 'appEnv' | 'totpEncryptionKey'>,
  sql: Queryable,
  /** Where a generated key is kept; none: a fresh one for this process only. */
  storePath: string | undefined,
): Promise<Buffer> {
  if (config.totpEncryptionKey) return config.totpEncryptionKey;
  if (config.appEnv === 'production')
    throw new ConfigError('invalid configuration: TOTP_ENCRYPTION_KEY: is required when APP_ENV=production');
  if (await liveApiKeyExists(sql)) {
    throw new ConfigError(
      'invalid configuration: TOTP_ENCRYPTION_KEY: is required once a live API key exists (32 random bytes, e.g. `openssl rand -base64 32`)',
    );
  }
  if (!storePath) return randomBytes(32);
  const parsed = parseTotpEncryptionKey(keptSecret(storePath, () => randomBytes(32).toString('base64')));
  if ('problem' in parsed)
    throw new ConfigError(`invalid configuration: TOTP_ENCRYPTION_KEY: the one kept in ${storePath} ${parsed.problem}`);
  return parsed.key;
}

/**
 * Seals, in one transaction, every TOTP secret still stored in plain text; returns how many. First it opens one
 * secret already sealed: with another key than they were sealed with (a changed or lost TOTP_ENCRYPTION_KEY) the API
 * stops here, naming the variable, instead of turning away every enrolled user at sign-in, and seals nothing under
 * the wrong key. Running it again seals nothing; replicas starting at once wait on each other's row locks, and
 * Postgres re-checks a row it waited for, so each secret is sealed once.
 */
export async function sealPlaintextTotpSecrets(sql: Sql, key: Buffer): Promise<number> {
  return sql.begin(async (tx) => {
    const [sample] = await tx<{ id: string; totp_secret: string }[]>`
      select id, totp_secret from merchant_users where totp_secret ~ '^v[0-9]+:' limit 1`;
    if (sample) {
      try {
        openTotpSecret(key, sample.id, sample.totp_secret);
      } catch (error) {
        if (!(error instanceof TotpSecretUnreadableError)) throw error;
        throw new ConfigError(
          `invalid configuration: TOTP_ENCRYPTION_KEY: does not open the stored TOTP secrets (${sample.id}'s); give the API the key they were sealed with`,
        );
      }
    }
    const plain = await tx<{ id: string; totp_secret: string }[]>`
      select id, totp_secret from merchant_users where totp_secret !~ '^v[0-9]+:' for update`;
    for (const row of plain)
      await tx`update merchant_users set totp_secret = ${sealTotpSecret(key, row.id, row.totp_secret)} where id = ${row.id}`;
    return plain.length;
  });
}
