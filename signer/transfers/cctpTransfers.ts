// The signer's CCTP transfer activities: one route per (mode, source chain) the signer was configured for
// (signer/worker.ts). A pair without a route answers no_route and touches nothing, so the schedules
// can exist for every CCTP chain while only the configured ones move money.
import { log, metricMeter } from '@temporalio/activity';
import type { CctpSourceChain } from '../../domain/cctp/domains';
import type { Mode } from '../../domain/wire/session';
import {
  createCctpRoute,
  type AttestationAnswer,
  type BurnAnswer,
  type CctpRoute,
  type CctpRouteDeps,
  type ReceiveAnswer,
  type StartAnswer,
} from './cctpTransfer';

export type CctpRoutes = Partial<Record<Mode, Partial<Record<CctpSourceChain, CctpRouteDeps>>>>;

export interface TransferRef {
  mode: Mode;
  chain: CctpSourceChain;
  transferId: string;
}

type NoRoute = { status: 'no_route' };

export function createCctpTransferActivities(routes: CctpRoutes) {
  const built = new Map<string, CctpRoute>();
  const routeOf = (mode: Mode, chain: CctpSourceChain): CctpRoute | undefined => {
    const deps = routes[mode]?.[chain];
    if (!deps) return undefined;
    const key = `${mode}:${chain}`;
    let route = built.get(key);
    if (!route) {
      route = createCctpRoute(deps);
      built.set(key, route);
    }
    return route;
  };
  const noRoute: NoRoute = { status: 'no_route' };
  return {
    async startCctpTransfer(request: { mode: Mode; chain: CctpSourceChain; runKey: string }): Promise<StartAnswer | NoRoute> {
      const answer = (await routeOf(request.mode, request.chain)?.start(request.runKey)) ?? noRoute;
      // Once per scheduled run, each a transfer that did not start: the next run asks for a fresh quote.
      if (answer.status === 'idle' && answer.feeAboveCeiling) {
        metricMeter
          .createCounter('checkout_cctp_fee_above_ceiling', 'runs', 'CCTP transfers not started: the fee quote is above CCTP_MAX_FEE_BPS')
          .add(1, { mode: request.mode, chain: request.chain });
        log.error('CCTP fee quote above CCTP_MAX_FEE_BPS: nothing burned, the next run asks again', { ...request, reason: answer.reason });
      }
      return answer;
    },
    async burnCctpTransfer(ref: TransferRef): Promise<BurnAnswer | NoRoute> {
      return (await routeOf(ref.mode, ref.chain)?.burn(ref.transferId)) ?? noRoute;
    },
    async pollCctpAttestation(ref: TransferRef): Promise<AttestationAnswer | NoRoute> {
      return (await routeOf(ref.mode, ref.chain)?.attestation(ref.transferId)) ?? noRoute;
    },
    async receiveCctpTransfer(ref: TransferRef): Promise<ReceiveAnswer | NoRoute> {
      return (await routeOf(ref.mode, ref.chain)?.receive(ref.transferId)) ?? noRoute;
    },
  };
}
