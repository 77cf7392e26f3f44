// What a dashboard user did, for the audit trail: one call per state-changing action.
import { recordAudit } from '../../db/repositories/auditEvents';
import type { Mode } from '../../domain/wire/session';
import type { AppDeps } from '../context';
import type { DashboardAuth } from './context';

export function auditUserAction(
  deps: Pick<AppDeps, 'sql'>,
  auth: DashboardAuth,
  mode: Mode | null,
  action: string,
  changes: Record<string, unknown>,
): Promise<void> {
  return recordAudit(deps.sql, { actor: { kind: 'user', id: auth.user.id }, merchantId: auth.user.merchantId, mode, action, changes });
}
