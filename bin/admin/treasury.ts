// `treasury status`: per mode, the USDC that unconfirmed payouts hold back and the payouts waiting, from Postgres
// alone. The on-chain balance needs the signer's RPC, which the CLI does not have: read it from the treasury address.
import { treasuryStatus } from '../../db/repositories/payoutListing';
import { z } from '../../domain/validationMessages';
import { defineCommand, table, type CommandGroup } from './cli';
import { ageText, usdcText } from './settlement';

const status = defineCommand({
  name: 'status',
  summary: 'per mode: USDC reserved by unconfirmed payouts, payouts waiting by status and the oldest',
  options: {},
  readOnly: true,
  schema: z.object({}),
  async run(context) {
    const modes = await treasuryStatus(context.sql());
    return {
      json: {
        modes: modes.map((m) => ({
          mode: m.mode,
          treasuries: m.treasuries,
          reserved_usdc: usdcText(m.reserved),
          reserved_base_units: m.reserved.toString(),
          waiting: m.waiting.map((w) => ({ status: w.status, count: w.count, amount_usdc: usdcText(w.amount), oldest_age_seconds: w.oldestAgeSeconds })),
        })),
      },
      text: modes.flatMap((m) => [
        `${m.mode}: treasury ${m.treasuries.length === 0 ? '- (no payouts yet)' : m.treasuries.join(', ')}; ${usdcText(m.reserved)} USDC reserved by unconfirmed payouts`,
        ...(m.waiting.length === 0
          ? ['  no payouts waiting']
          : table(['STATUS', 'COUNT', 'AMOUNT USDC', 'OLDEST'], m.waiting.map((w) => [w.status, String(w.count), usdcText(w.amount), ageText(w.oldestAgeSeconds)])).map((l) => `  ${l}`)),
      ]),
    };
  },
});

export const treasuryCommands: CommandGroup = { name: 'treasury', summary: 'the Solana USDC treasury, as the payouts see it', commands: [status] };
