// `routes show` (or just `routes`): the 16 TOKEN:chain pairs of a mode with the route that brings their money back to
// the Solana USDC treasury, each ✓ (offered and brought back) or ✗ with what it lacks and the variable to set, judged
// by the rule the API's and the worker's start-up check use (domain/settlement/pairRoutes.ts) on this configuration.
import { pairRouteFactsFromConfig } from '../../config/pairRouteFacts';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import { indexedChains } from '../../domain/chains/indexedChains';
import { pairRouteStatuses, type PairRouteStatus } from '../../domain/settlement/pairRoutes';
import { z } from '../../domain/wire/validationMessages';
import { defineCommand, ModeOption, table, type CommandGroup } from './cli';

const why = (status: PairRouteStatus): string[] => [
  ...(status.listed ? [] : ['not in SETTLEMENT_LIVE_ROUTES']),
  ...(status.route === null ? ['no route to the treasury'] : status.gaps.map((gap) => `${gap.lacks} (set ${gap.set})`)),
];

const show = defineCommand({
  name: 'show',
  summary: "each pair's route back to the treasury, ✓ when offered and brought back, ✗ with what it lacks (checkout-admin routes)",
  options: { mode: { value: '<test|live>', description: 'the mode to judge (default live)' } },
  readOnly: true,
  schema: z.object({ mode: ModeOption.default('live') }),
  async run(context, input) {
    const registry = createChainRegistry(context.chains());
    const factsOf = pairRouteFactsFromConfig(context.config, registry, indexedChains(registry.all()), input.mode);
    const statuses = pairRouteStatuses(input.mode, context.config.settlementLiveRoutes, factsOf);
    // A listed live pair that is not ready is what a production start refuses: scripts see it in the exit code.
    const refused = input.mode === 'live' && statuses.some((status) => status.listed && !status.ready);
    return {
      json: {
        mode: input.mode,
        pairs: statuses.map((status) => ({
          pair: `${status.token}:${status.chain}`,
          route: status.route,
          ready: status.ready,
          ...(input.mode === 'live' ? { listed: status.listed } : {}),
          missing: status.gaps,
        })),
      },
      text: [
        `${input.mode} routes${input.mode === 'live' ? ` (SETTLEMENT_LIVE_ROUTES: ${context.config.settlementLiveRoutes.map((r) => `${r.token}:${r.chain}`).join(',') || '-'})` : ''}`,
        ...table(
          ['pair', 'route', '', 'why'],
          statuses.map((status) => [
            `${status.token}:${status.chain}`,
            status.route ?? 'none',
            status.ready ? '✓' : '✗',
            status.ready ? '' : why(status).join('; '),
          ]),
        ),
      ],
      ...(refused ? { exitCode: 1 } : {}),
    };
  },
});

export const routeCommands: CommandGroup = {
  name: 'routes',
  summary: "each pair's route back to the treasury and what it lacks",
  commands: [show],
};
