// The signer's USDT swap routes from configuration: a CCTP route (signer/config/cctpRoutes.ts: relayer key,
// collector, treasury, RPC endpoint, USDC) whose chain and network also have a USDT contract and
// SWAP_ROUTER_/SWAP_QUOTER_<CHAIN>_<NETWORK>. It shares the CCTP route's client and relayer writer: one relayer,
// one nonce sequence per chain.
import type { Address } from 'viem';
import type { Config } from '../../config/env';
import type { CctpSourceChain } from '../../domain/cctp/domains';
import type { ChainRegistry } from '../../domain/chains/chainRegistry';
import { atPar } from '../../domain/swaps/swap';
import { networkForMode } from '../../domain/session/payablePairs';
import type { CctpRoutes } from '../transfers/cctpTransfers';
import type { UsdtSwapRoutes } from '../swaps/usdtSwaps';

const USDC_DECIMALS = 6;

export function swapRoutesFromConfig(config: Pick<Config, 'swaps'>, registry: ChainRegistry, cctpRoutes: CctpRoutes): UsdtSwapRoutes {
  const routes: UsdtSwapRoutes = {};
  for (const mode of ['test', 'live'] as const) {
    const network = networkForMode(mode);
    for (const [chain, cctp] of Object.entries(cctpRoutes[mode] ?? {}) as [
      CctpSourceChain,
      NonNullable<CctpRoutes['test']>[CctpSourceChain],
    ][]) {
      const contracts = config.swaps.contracts[network][chain];
      const usdt = registry.token(chain, network, 'USDT');
      const usdc = registry.token(chain, network, 'USDC');
      if (!cctp || !contracts || !usdt || !usdc) continue;
      (routes[mode] ??= {})[chain] = {
        sql: cctp.treasury.sql,
        mode,
        chain,
        client: cctp.client,
        writer: cctp.writer,
        collector: cctp.collector,
        usdt: { address: usdt.address as Address, decimals: usdt.decimals },
        usdc: { address: usdc.address as Address, decimals: usdc.decimals },
        router: contracts.router,
        quoter: contracts.quoter,
        poolFee: config.swaps.poolFee,
        maxDeviationBps: config.swaps.maxDeviationBps,
        // The transfer minimum, in USDT's base units: a swap smaller than a transfer would only wait in USDC.
        minimum: atPar(cctp.minimum, USDC_DECIMALS, usdt.decimals),
        confirmations: cctp.confirmations,
      };
    }
  }
  return routes;
}
