// `audit list`: the admin CLI's own trail, newest first: who ran which state-changing command, when, with
// which arguments (secrets redacted), what it touched and how it ended.
import { listAdminAudit, type AdminAuditEvent } from '../../db/repositories/adminAuditEvents';
import { z } from '../../domain/wire/validationMessages';
import { defineCommand, integerOption, table, when, type CommandGroup } from './cli';

/** A day (UTC midnight) or an instant with its zone: a time without one would mean whatever the shell's zone is. */
const SinceOption = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: 'Must be a date (2025-01-31) or a time with its zone (2025-01-31T09:00:00Z)',
  })
  .transform((value) => new Date(value));

const eventJson = (event: AdminAuditEvent) => ({
  id: event.id.toString(),
  at: event.at.toISOString(),
  finished_at: event.finishedAt?.toISOString() ?? null,
  operator: event.operator,
  operator_source: event.operatorSource,
  action: event.action,
  arguments: event.arguments,
  targets: event.targets,
  outcome: event.outcome,
  error: event.error,
});

const argumentsText = (args: Record<string, string | boolean>) =>
  Object.entries(args)
    .map(([name, value]) => (value === true ? `--${name}` : `--${name} ${JSON.stringify(value)}`))
    .join(' ') || '-';

const list = defineCommand({
  name: 'list',
  summary: 'list audited admin commands, newest first: operator, command, arguments (secrets redacted), targets, outcome',
  options: {
    since: { value: '<date|time>', description: 'only commands from then on, e.g. 2025-01-31 or 2025-01-31T09:00:00Z' },
    limit: { value: '<n>', description: 'at most this many, 1 to 1000 (default 50)' },
  },
  readOnly: true,
  schema: z.object({ since: SinceOption.optional(), limit: integerOption(1, 1000).default(50) }),
  async run(context, input) {
    const events = await listAdminAudit(context.sql(), { since: input.since ?? null, limit: input.limit });
    return {
      json: { events: events.map(eventJson) },
      text:
        events.length === 0
          ? ['no audited commands']
          : table(
              ['AT', 'OPERATOR', 'COMMAND', 'OUTCOME', 'TARGETS', 'ARGUMENTS', 'ERROR'],
              events.map((e) => [
                when(e.at),
                e.operatorSource === 'os' ? `${e.operator} (login)` : e.operator,
                e.action.replace('.', ' '),
                e.outcome ?? 'unfinished',
                e.targets.join(',') || '-',
                argumentsText(e.arguments),
                e.error ?? '-',
              ]),
            ),
    };
  },
});

export const auditCommands: CommandGroup = { name: 'audit', summary: "the admin CLI's audit trail", commands: [list] };
