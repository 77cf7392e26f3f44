// Runs a state-changing command under its audit row. The row is written first: if the trail cannot be
// written the command does not run, and a command whose process dies half-way still leaves a row.
import { closeAdminAudit, openAdminAudit } from '../../db/repositories/adminAuditEvents';
import type { AdminAuditOutcome } from '../../domain/security/adminAudit';
import { CliError, errorLine, type AdminContext, type CommandResult } from './cli';

export async function runAudited(
  context: AdminContext,
  entry: { action: string; arguments: Record<string, string | boolean> },
  run: () => Promise<CommandResult>,
): Promise<CommandResult> {
  const sql = context.sql();
  const id = await openAdminAudit(sql, { operator: context.operator, ...entry });
  let result: CommandResult;
  try {
    result = await run();
  } catch (error) {
    const outcome: AdminAuditOutcome = error instanceof CliError ? 'refused' : 'failed';
    // The command's own error is what the operator must see; a trail that cannot be closed leaves the row open.
    await closeAdminAudit(sql, id, { outcome, error: errorLine(error), targets: [] }).catch(() => undefined);
    throw error;
  }
  try {
    await closeAdminAudit(sql, id, { outcome: 'ok', error: null, targets: result.targets ?? [] });
  } catch (error) {
    // The change is made: its result (a key shown only once) must still reach the operator.
    return { ...result, warnings: [...(result.warnings ?? []), `the audit row of this command stays unfinished: ${errorLine(error)}`] };
  }
  return result;
}
