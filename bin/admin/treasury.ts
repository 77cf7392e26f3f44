// `treasury status`: per mode, the USDC that unconfirmed payouts hold back and the payouts waiting, from Postgres,
// beside what the last reconciliation read on chain (the CLI reads no chain for it: `ledger reconcile` does).
// `treasury record-funding`: records an operator's top-up or withdrawal, read from the chain, in the ledger.
// `treasury record-relayer-funding`: records an operator's top-up of a relayer's gas coin on an EVM chain or Tron,
// read from that chain through the mode's network's RPC URL or Tron HTTP API.
import { createPublicClient, http, type PublicClient } from 'viem';
import { createTronWalletApi } from '../../activities/http/tronWalletApi';
import {
  evmPaymentSource,
  recordRelayerFunding,
  RelayerFundingRefused,
  tronPaymentSource,
  type PaymentSource,
} from '../../activities/settlement/relayerFunding';
import { FundingRefused, recordTreasuryFunding } from '../../activities/settlement/treasuryFunding';
import { envSuffix } from '../../config/chains';
import { treasuryStatus } from '../../db/repositories/payoutListing';
import { lastReconciliationRuns } from '../../db/repositories/reconciliation';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import type { Chain } from '../../domain/chains/chains';
import { ACCOUNT } from '../../domain/ledger/ledger';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';
import { z } from '../../domain/wire/validationMessages';
import { CliError, defineCommand, ModeOption, table, type AdminContext, type CommandGroup } from './cli';
import { ForwarderChainOption } from './evmSweeps';
import { assetText, configuredTreasuryViews } from './ledger';
import { ageText, usdcText } from './settlement';

const status = defineCommand({
  name: 'status',
  summary:
    'per mode: the on-chain balance at the last reconciliation, USDC reserved by unconfirmed payouts, payouts waiting by status and the oldest',
  options: {},
  readOnly: true,
  schema: z.object({}),
  async run(context) {
    const [modes, runs] = await Promise.all([treasuryStatus(context.sql()), lastReconciliationRuns(context.sql())]);
    const onChain = (mode: string) => {
      const run = runs.find((r) => r.mode === mode);
      return run && { run, balances: run.balances.filter((b) => b.account === ACCOUNT.treasury) };
    };
    return {
      json: {
        modes: modes.map((m) => {
          const chain = onChain(m.mode);
          return {
            mode: m.mode,
            treasuries: m.treasuries,
            on_chain: chain
              ? {
                  reconciled_at: chain.run.ranAt.toISOString(),
                  differences: chain.run.differences.length,
                  balances: chain.balances.map((b) => ({
                    asset: b.asset,
                    amount: assetText(b.asset, b.observed),
                    base_units: b.observed.toString(),
                  })),
                }
              : null,
            reserved_usdc: usdcText(m.reserved),
            reserved_base_units: m.reserved.toString(),
            waiting: m.waiting.map((w) => ({
              status: w.status,
              count: w.count,
              amount_usdc: usdcText(w.amount),
              oldest_age_seconds: w.oldestAgeSeconds,
            })),
          };
        }),
      },
      text: modes.flatMap((m) => {
        const chain = onChain(m.mode);
        return [
          `${m.mode}: treasury ${m.treasuries.length === 0 ? '- (no payouts yet)' : m.treasuries.join(', ')}; ${usdcText(m.reserved)} USDC reserved by unconfirmed payouts`,
          chain
            ? `  on chain at ${chain.run.ranAt.toISOString()}: ${chain.balances.map((b) => `${assetText(b.asset, b.observed)} ${b.asset}`).join(', ')}; ${chain.run.differences.length} reconciliation difference(s)`
            : '  on chain: not reconciled yet (checkout-admin ledger reconcile)',
          ...(m.waiting.length === 0
            ? ['  no payouts waiting']
            : table(
                ['STATUS', 'COUNT', 'AMOUNT USDC', 'OLDEST'],
                m.waiting.map((w) => [w.status, String(w.count), usdcText(w.amount), ageText(w.oldestAgeSeconds)]),
              ).map((l) => `  ${l}`)),
        ];
      }),
    };
  },
});

const recordFunding = defineCommand({
  name: 'record-funding',
  summary:
    "record in the ledger a transaction that moved USDC or SOL into or out of a mode's treasury outside the service, as the chain shows it",
  options: {
    mode: { value: '<test|live>', description: 'the treasury it funded' },
    signature: { value: '<signature>', description: 'the landed transaction (base58); recording it again changes nothing' },
  },
  schema: z.object({ mode: ModeOption, signature: z.string().min(1) }),
  async run(context, input) {
    const view = configuredTreasuryViews(context).find((v) => v.mode === input.mode);
    if (!view) throw new CliError(`no ${input.mode} treasury to read: set SOLANA_TREASURY_ADDRESS_${input.mode.toUpperCase()}`);
    try {
      const posting = await recordTreasuryFunding(view, context.sql(), input.signature);
      const changes = posting.entries.filter((e) => e.account === ACCOUNT.treasury);
      return {
        json: {
          mode: input.mode,
          treasury: view.treasury,
          group_id: posting.groupId,
          changes: changes.map((e) => ({ asset: e.asset, amount: assetText(e.asset, e.amount), base_units: e.amount.toString() })),
        },
        text: [
          `${input.mode} treasury ${view.treasury}: recorded ${posting.groupId}: ${changes.map((e) => `${assetText(e.asset, e.amount)} ${e.asset}`).join(', ')}`,
        ],
        targets: [posting.groupId],
      };
    } catch (error) {
      if (error instanceof FundingRefused) throw new CliError(error.message);
      throw error;
    }
  },
});

/** A node that does not answer must not hold the operator for long. */
const RPC_TIMEOUT_MS = 10_000;

/** Where the mode's network shows `chain`'s transactions: its first RPC URL, or Tron's HTTP API. */
function paymentSource(context: AdminContext, mode: Mode, chain: Chain): PaymentSource {
  const chains = context.chains();
  const network = networkForMode(mode);
  const name = `${chain} ${network}`;
  if (chain === 'tron') {
    const api = chains.tronHttpApi[network];
    if (!api) throw new CliError(`no Tron HTTP API to read ${name}: set TRON_HTTP_API_URL_${network.toUpperCase()}`);
    return tronPaymentSource(name, createTronWalletApi({ ...api, timeoutMs: RPC_TIMEOUT_MS }));
  }
  const deployment = createChainRegistry(chains).get(chain, network);
  const [rpcUrl] = deployment.rpcUrls;
  if (!rpcUrl) throw new CliError(`no RPC URL to read ${name}: set RPC_URLS_${envSuffix(chain, network)}`);
  return evmPaymentSource({
    chain,
    name,
    client: createPublicClient({ transport: http(rpcUrl, { timeout: RPC_TIMEOUT_MS }) }) as PublicClient,
    chainId: deployment.chainId,
    confirmations: deployment.confirmations,
  });
}

const recordRelayerFundingCommand = defineCommand({
  name: 'record-relayer-funding',
  summary:
    "record in the ledger an operator's transaction that paid a mode's relayer its gas coin on an EVM chain or Tron, as the chain shows it",
  options: {
    mode: { value: '<test|live>', description: 'the relayer it funded' },
    chain: { value: '<ethereum|polygon|arbitrum|optimism|base|bsc|tron>', description: 'where it landed' },
    tx: {
      value: '<hash>',
      description: 'the landed transaction (0x… on EVM chains, 64 hex digits on Tron); recording it again changes nothing',
    },
  },
  schema: z.object({ mode: ModeOption, chain: ForwarderChainOption, tx: z.string().min(1) }),
  async run(context, input) {
    const chain = input.chain as Chain;
    try {
      const { posting, relayer, alreadyRecorded } = await recordRelayerFunding(
        context.sql(),
        input.mode,
        paymentSource(context, input.mode, chain),
        input.tx,
      );
      const [entry] = posting.entries.filter((e) => e.account === ACCOUNT.relayer(chain));
      const amount = entry ? `${assetText(entry.asset, entry.amount)} ${entry.asset}` : '-';
      return {
        json: {
          mode: input.mode,
          chain,
          relayer,
          group_id: posting.groupId,
          asset: entry?.asset,
          amount: entry && assetText(entry.asset, entry.amount),
          base_units: entry?.amount.toString(),
          already_recorded: alreadyRecorded,
        },
        text: [
          alreadyRecorded
            ? `${input.mode} relayer on ${chain} ${relayer}: ${posting.groupId} was already recorded (${amount}); nothing changed`
            : `${input.mode} relayer on ${chain} ${relayer}: recorded ${posting.groupId}: ${amount}`,
        ],
        targets: [posting.groupId],
      };
    } catch (error) {
      if (error instanceof RelayerFundingRefused) throw new CliError(error.message);
      throw error;
    }
  },
});

export const treasuryCommands: CommandGroup = {
  name: 'treasury',
  summary: "the Solana USDC treasury, as the payouts see it, and operators' funding of it and of the relayers",
  commands: [status, recordFunding, recordRelayerFundingCommand],
};
