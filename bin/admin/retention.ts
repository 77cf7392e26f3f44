// `retention purge`: the worker's retention sweep on demand, e.g. after lowering a RETENTION_* age.
import { purgeRetained } from '../../db/repositories/retention';
import { z } from '../../domain/wire/validationMessages';
import { defineCommand, table, type CommandGroup } from './cli';

const purge = defineCommand({
  name: 'purge',
  summary: 'delete expired quotes, rate-limit counters, idempotency keys and old webhook attempts now (RETENTION_* ages)',
  options: {},
  schema: z.object({}),
  async run(context) {
    const counts = await purgeRetained(context.sql(), context.config.retention.ages);
    // Expired rows, not records anyone addresses by id: the counts are in the output, no target to name.
    return {
      json: { deleted: counts },
      text: table(
        ['TABLE', 'DELETED'],
        Object.entries(counts).map(([name, n]) => [name, String(n)]),
      ),
    };
  },
});

export const retentionCommands: CommandGroup = { name: 'retention', summary: 'retention of expired rows', commands: [purge] };
