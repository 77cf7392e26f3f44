// The admin CLI's audit trail: a row opened before a state-changing command runs, closed with its outcome.
import type { AdminAuditOutcome, Operator, OperatorSource } from '../../domain/security/adminAudit';
import type { Queryable } from '../client';

export interface AdminAuditEvent {
  id: bigint;
  operator: string;
  operatorSource: OperatorSource;
  action: string;
  arguments: Record<string, string | boolean>;
  targets: string[];
  /** Null while the command runs, and for good if its process died before it ended. */
  outcome: AdminAuditOutcome | null;
  error: string | null;
  at: Date;
  finishedAt: Date | null;
}

export async function openAdminAudit(
  sql: Queryable,
  entry: { operator: Operator; action: string; arguments: Record<string, string | boolean> },
): Promise<bigint> {
  const [row] = await sql<{ id: bigint }[]>`
    insert into admin_audit_events (operator, operator_source, action, arguments)
    values (${entry.operator.name}, ${entry.operator.source}, ${entry.action}, ${sql.json(entry.arguments)})
    returning id`;
  return row!.id;
}

export async function closeAdminAudit(
  sql: Queryable,
  id: bigint,
  end: { outcome: AdminAuditOutcome; error: string | null; targets: string[] },
): Promise<void> {
  await sql`
    update admin_audit_events set outcome = ${end.outcome}, error = ${end.error}, targets = ${end.targets}, finished_at = now()
    where id = ${id.toString()} and outcome is null`;
}

/** Newest first. */
export async function listAdminAudit(sql: Queryable, filter: { since: Date | null; limit: number }): Promise<AdminAuditEvent[]> {
  return sql<AdminAuditEvent[]>`
    select id, operator, operator_source as "operatorSource", action, arguments, targets, outcome, error, at, finished_at as "finishedAt"
    from admin_audit_events
    where ${filter.since === null ? sql`true` : sql`at >= ${filter.since}`}
    order by at desc, id desc
    limit ${filter.limit}`;
}
