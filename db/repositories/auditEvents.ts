// The audit trail: who changed what, when. Dashboard users write it today; operators (the admin CLI) can too.
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

export interface AuditActor {
  kind: 'user' | 'operator';
  id: string;
}

export interface AuditEvent {
  actor: AuditActor;
  merchantId: string | null;
  mode: Mode | null;
  action: string;
  changes: Record<string, unknown>;
  at: Date;
}

export async function recordAudit(sql: Queryable, event: Omit<AuditEvent, 'at'>): Promise<void> {
  await sql`
    insert into audit_events (actor_kind, actor_id, merchant_id, mode, action, changes)
    values (${event.actor.kind}, ${event.actor.id}, ${event.merchantId}, ${event.mode}, ${event.action}, ${sql.json(event.changes as never)})`;
}

export async function listAuditEvents(sql: Queryable, merchantId: string): Promise<AuditEvent[]> {
  const rows = await sql<
    {
      actor_kind: AuditActor['kind'];
      actor_id: string;
      merchant_id: string | null;
      mode: Mode | null;
      action: string;
      changes: Record<string, unknown>;
      at: Date;
    }[]
  >`
    select actor_kind, actor_id, merchant_id, mode, action, changes, at from audit_events where merchant_id = ${merchantId} order by at desc, id desc`;
  return rows.map((r) => ({
    actor: { kind: r.actor_kind, id: r.actor_id },
    merchantId: r.merchant_id,
    mode: r.mode,
    action: r.action,
    changes: r.changes,
    at: r.at,
  }));
}
