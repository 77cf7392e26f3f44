import type { Sql } from '../db/client';
import { findApiKeyByHash, listenForApiKeyChanges, type ApiKey } from '../db/repositories/apiKeys';
import { LookupCache } from '../domain/security/lookupCache';

/**
 * How long a replica trusts a key lookup it made, found or not. Invalidation by NOTIFY is what normally drops an
 * entry, within milliseconds of the write; this bounds the staleness when a notification is lost (the listening
 * connection dropped and not yet back), so a revoked key is refused within a second on every replica regardless.
 */
export const API_KEY_CACHE_TTL_MS = 1_000;
/** While Postgres is unreachable at start, how often the API tries again to listen for key changes. */
const LISTEN_RETRY_MS = 1_000;

/** API key lookups by key hash, shared by every route of one app: the per-request key lookup leaves the database. */
export interface ApiKeyCache {
  find(keyHash: Buffer): Promise<ApiKey | undefined>;
  /**
   * Starts listening for key changes, retrying every LISTEN_RETRY_MS while Postgres cannot be reached (an API
   * starts without its database and says so on /readyz); resolves once listening. The cache keeps nothing until then.
   */
  listen(): Promise<void>;
  close(): Promise<void>;
}

export function createApiKeyCache(sql: Sql, now: () => Date = () => new Date()): ApiKeyCache {
  const cache = new LookupCache<ApiKey>(API_KEY_CACHE_TTL_MS);
  let subscription: { unlisten(): Promise<void> } | undefined;
  let closed = false;
  return {
    find: (keyHash) => cache.lookup(keyHash.toString('hex'), now().getTime(), () => findApiKeyByHash(sql, keyHash)),
    async listen() {
      while (!closed && !subscription) {
        try {
          subscription = await listenForApiKeyChanges(
            sql,
            (hashHex) => cache.invalidate(hashHex),
            () => cache.setLive(true),
          );
        } catch {
          await new Promise((resolve) => setTimeout(resolve, LISTEN_RETRY_MS).unref());
        }
      }
      // Closed while the subscription was being made: nothing may listen past close().
      if (closed) await subscription?.unlisten().catch(() => undefined);
    },
    async close() {
      closed = true;
      cache.setLive(false);
      await subscription?.unlisten();
      subscription = undefined;
    },
  };
}
