import type { Sql } from '../db/client';
import { findApiKeyByHash, listenForApiKeyChanges, type ApiKey } from '../db/repositories/apiKeys';
import { LookupCache } from '../domain/lookupCache';

/**
 * How long a replica trusts a key lookup it made, found or not. Invalidation by NOTIFY is what normally drops an
 * entry, within milliseconds of the write; this bounds the staleness when a notification is lost (the listening
 * connection dropped and not yet back), so a revoked key is refused within a second on every replica regardless.
 */
export const API_KEY_CACHE_TTL_MS = 1_000;

/** API key lookups by key hash, shared by every route of one app: the per-request key lookup leaves the database. */
export interface ApiKeyCache {
  find(keyHash: Buffer): Promise<ApiKey | undefined>;
  /** Starts listening for key changes; the cache keeps nothing until it listens. */
  listen(): Promise<void>;
  close(): Promise<void>;
}

export function createApiKeyCache(sql: Sql, now: () => Date = () => new Date()): ApiKeyCache {
  const cache = new LookupCache<ApiKey>(API_KEY_CACHE_TTL_MS);
  let subscription: { unlisten(): Promise<void> } | undefined;
  return {
    find: (keyHash) => cache.lookup(keyHash.toString('hex'), now().getTime(), () => findApiKeyByHash(sql, keyHash)),
    async listen() {
      subscription = await listenForApiKeyChanges(sql, (hashHex) => cache.invalidate(hashHex), () => cache.setLive(true));
    },
    async close() {
      cache.setLive(false);
      await subscription?.unlisten();
      subscription = undefined;
    },
  };
}
