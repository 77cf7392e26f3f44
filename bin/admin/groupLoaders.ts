// Each command group's implementation by group name, imported only when one of its commands runs: together
// they load the Temporal client, viem, the chains' clients and every repository, which would otherwise
// double the start-up of every command.
import type { CommandGroup } from './cli';

export const GROUP_LOADERS: Readonly<Record<string, () => Promise<CommandGroup>>> = {
  merchant: async () => (await import('./merchants')).merchantCommands,
  key: async () => (await import('./keys')).keyCommands,
  'webhook-secret': async () => (await import('./webhookSecrets')).webhookSecretCommands,
  bank: async () => (await import('./bank')).bankCommands,
  webhooks: async () => (await import('./webhooks')).webhookCommands,
  session: async () => (await import('./sessions')).sessionCommands,
  settlement: async () => (await import('./settlement')).settlementCommands,
  refund: async () => (await import('./refunds')).refundCommands,
  sweep: async () => (await import('./sweeps')).sweepCommands,
  transfer: async () => (await import('./transfers')).transferCommands,
  treasury: async () => (await import('./treasury')).treasuryCommands,
  routes: async () => (await import('./routes')).routeCommands,
  tron: async () => (await import('./tron')).tronCommands,
  inventory: async () => (await import('./inventory')).inventoryCommands,
  ledger: async () => (await import('./ledger')).ledgerCommands,
  report: async () => (await import('./reports')).reportCommands,
  user: async () => (await import('./users')).userCommands,
  retention: async () => (await import('./retention')).retentionCommands,
  audit: async () => (await import('./audit')).auditCommands,
};
