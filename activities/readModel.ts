import type { Sql } from '../db/client';
import { applyStatusChange, insertSessionRecord } from '../db/repositories/sessions';
import type { SessionRecord, SessionStatusChange } from '../domain/session';

export function createReadModelActivities(deps: { sql: Sql }) {
  return {
    /** Idempotent; heals a read model whose API-side write was lost after the workflow started. */
    async recordSession(record: SessionRecord): Promise<void> {
      await insertSessionRecord(deps.sql, record, 'pending');
    },
    async recordStatusChange(change: SessionStatusChange): Promise<void> {
      await applyStatusChange(deps.sql, change);
    },
  };
}

export type ReadModelActivities = ReturnType<typeof createReadModelActivities>;
