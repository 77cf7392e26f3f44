import { generateApiKey } from '../../domain/security/apiKeys';
import { newApiKeyId } from '../../domain/wire/ids';
import type { Mode } from '../../domain/wire/session';
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
  const [row] = await sql<
    { id: string; merchant_id: string; mode: Mode; key_hash: Buffer; revoked_at: Date | null; allowed_ips: string[] | null }[]
  >`
    select id, merchant_id, mode, key_hash, revoked_at, allowed_ips from api_keys where key_hash = ${keyHash}`;
  return (
    row && {
      id: row.id,
      merchantId: row.merchant_id,
      mode: row.mode,
      keyHash: row.key_hash,
      revokedAt: row.revoked_at,
      allowedIps: row.allowed_ips,
    }
  );
}

export async function revokeApiKey(sql: Sql, id: string): Promise<boolean> {
  const rows = await sql`update api_keys set revoked_at = now() where id = ${id} and revoked_at is null returning id`;
  return rows.length === 1;
}

/** A key as operators see it: never the hash, only the prefix and last four characters. */
export interface ApiKeySummary {
  id: string;
  merchantId: string;
  mode: Mode;
  prefix: string;
  last4: string;
  label: string | null;
  allowedIps: string[] | null;
  createdAt: Date;
  revokedAt: Date | null;
}

interface ApiKeySummaryRow {
  id: string;
  merchant_id: string;
  mode: Mode;
  key_prefix: string;
  key_last4: string;
  label: string | null;
  allowed_ips: string[] | null;
  created_at: Date;
  revoked_at: Date | null;
}

const toSummary = (r: ApiKeySummaryRow): ApiKeySummary => ({
  id: r.id,
  merchantId: r.merchant_id,
  mode: r.mode,
  prefix: r.key_prefix,
  last4: r.key_last4,
  label: r.label,
  allowedIps: r.allowed_ips,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

export async function findApiKeySummary(sql: Sql, id: string): Promise<ApiKeySummary | undefined> {
  const [row] = await sql<ApiKeySummaryRow[]>`
    select id, merchant_id, mode, key_prefix, key_last4, label, allowed_ips, created_at, revoked_at from api_keys where id = ${id}`;
  return row && toSummary(row);
}

export async function listApiKeys(sql: Sql, merchantId: string): Promise<ApiKeySummary[]> {
  const rows = await sql<ApiKeySummaryRow[]>`
    select id, merchant_id, mode, key_prefix, key_last4, label, allowed_ips, created_at, revoked_at
    from api_keys where merchant_id = ${merchantId} order by created_at, id`;
  return rows.map(toSummary);
}

/** Restricts the key to `allowedIps` (addresses and CIDR ranges); null lifts the restriction. */
export async function setApiKeyAllowedIps(sql: Sql, id: string, allowedIps: string[] | null): Promise<boolean> {
  const rows =
    await sql`update api_keys set allowed_ips = ${allowedIps === null ? null : sql.array(allowedIps)} where id = ${id} returning id`;
  return rows.length === 1;
}

/**
 * Calls `onChange` with the hex key hash of every key written from now on (the trigger in db/migrations/0001_baseline.sql), and
 * `onListen` on every (re)connect of the listening connection: what was written while it was down went unheard.
 */
export async function listenForApiKeyChanges(
  sql: Sql,
  onChange: (keyHashHex: string) => void,
  onListen: () => void,
): Promise<{ unlisten(): Promise<void> }> {
  const subscription = await sql.listen('api_keys', onChange, onListen);
  return { unlisten: () => subscription.unlisten() };
}
