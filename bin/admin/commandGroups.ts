// Every command the admin CLI has, in the order --help lists them. The CLI itself reads their specs from
// commandManifest.ts and loads one group through groupLoaders.ts; all of them are loaded here only for the
// tests, the docs check and the manifest's writer.
import { auditCommands } from './audit';
import { bankCommands } from './bank';
import type { CommandGroup } from './cli';
import type { GroupSpec } from './commandLine';
import { inventoryCommands } from './inventory';
import { keyCommands } from './keys';
import { ledgerCommands } from './ledger';
import { merchantCommands } from './merchants';
import { refundCommands } from './refunds';
import { reportCommands } from './reports';
import { retentionCommands } from './retention';
import { routeCommands } from './routes';
import { sessionCommands } from './sessions';
import { settlementCommands } from './settlement';
import { sweepCommands } from './sweeps';
import { transferCommands } from './transfers';
import { treasuryCommands } from './treasury';
import { tronCommands } from './tron';
import { userCommands } from './users';
import { webhookSecretCommands } from './webhookSecrets';
import { webhookCommands } from './webhooks';

export const GROUPS: CommandGroup[] = [
  merchantCommands,
  keyCommands,
  webhookSecretCommands,
  bankCommands,
  webhookCommands,
  sessionCommands,
  settlementCommands,
  refundCommands,
  sweepCommands,
  transferCommands,
  treasuryCommands,
  routeCommands,
  tronCommands,
  inventoryCommands,
  ledgerCommands,
  reportCommands,
  userCommands,
  retentionCommands,
  auditCommands,
];

/** What the CLI needs to know of the groups before it runs one: everything but how each command runs. */
export const GROUP_SPECS: GroupSpec[] = GROUPS.map((group) => ({
  name: group.name,
  summary: group.summary,
  commands: group.commands.map(({ name, summary, positional, options, readOnly }) => ({
    name,
    summary,
    ...(positional ? { positional } : {}),
    options,
    ...(readOnly ? { readOnly } : {}),
  })),
}));
