import { generateApiKey } from '../../domain/apiKeys';
import { newApiKeyId } from '../../domain/ids';
import type { Mode } from '../../domain/session';
import type { Sql } from '../client';

export interface ApiKey {
  id: string;
  merchantId: string;
  mode: Mode;
  keyHash: Buffer;
  revokedAt: Date | null;
  allowedIps: string[] | null;
}

/** Stores a new key's hash and returns the raw key, which exists nowhere else from here on. */
export async function createApiKey(sql: Sql, merchantId: string, mode: Mode, label?: string): Promise<{ id: string; raw: string }> {
  const key = generateApiKey(mode);
  const id = newApiKeyId();
  await sql`
    insert into api_keys (id, merchant_id, mode, key_hash, key_prefix, key_last4, label)
    values (${id}, ${merchantId}, ${mode}, ${key.hash}, ${key.prefix}, ${key.last4}, ${label ?? null})`;
  return { id, raw: key.raw };
}

export async function findApiKeyByHash(sql: Sql, keyHash: Buffer): Promise<ApiKey | undefined> {
  const [row] = await sql<{ id: string; merchant_id: string; mode: Mode; key_hash: Buffer; revoked_at: Date | null; allowed_ips: string[] | null }[]>`
    select id, merchant_id, mode, key_hash, revoked_at, allowed_ips from api_keys where key_hash = ${keyHash}`;
  return row && { id: row.id, merchantId: row.merchant_id, mode: row.mode, keyHash: row.key_hash, revokedAt: row.revoked_at, allowedIps: row.allowed_ips };
}

export async function revokeApiKey(sql: Sql, id: string): Promise<boolean> {
  const rows = await sql`update api_keys set revoked_at = now() where id = ${id} and revoked_at is null returning id`;
  return rows.length === 1;
}
