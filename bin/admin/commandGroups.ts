// Every command the admin CLI has, in the order --help lists them.
import { auditCommands } from './audit';
import { bankCommands } from './bank';
import type { CommandGroup } from './cli';
import { keyCommands } from './keys';
import { ledgerCommands } from './ledger';
import { merchantCommands } from './merchants';
import { retentionCommands } from './retention';
import { sessionCommands } from './sessions';
import { settlementCommands } from './settlement';
import { sweepCommands } from './sweeps';
import { transferCommands } from './transfers';
import { treasuryCommands } from './treasury';
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
  sweepCommands,
  transferCommands,
  treasuryCommands,
  ledgerCommands,
  userCommands,
  retentionCommands,
  auditCommands,
];
