// A live route is honoured only where mainnet has the token's contract and an indexer watches the chain.
import { describe, expect, it } from 'vitest';
import { createChainRegistry, type ChainNetworkConfig } from '../../../domain/chains/chainRegistry';
import { CHAINS, type Chain } from '../../../domain/chains/chains';
import { uncoveredLiveRoutes } from '../../../domain/settlement/liveRouteCoverage';
import { parseLiveRoutes } from '../../../domain/settlement/settlementRoute';

const unconfigured: ChainNetworkConfig = { rpcUrls: [], wsUrls: [], tokens: {} };
const registry = createChainRegistry({
  networks: Object.fromEntries(CHAINS.map((chain) => [chain, { testnet: unconfigured, mainnet: unconfigured }])) as Record<
    Chain,
    Record<'testnet' | 'mainnet', ChainNetworkConfig>
  >,
});

describe('uncovered live routes', () => {
  it('names a route without a mainnet contract, then one without an indexer, and passes the rest', () => {
    const routes = parseLiveRoutes('USDC:solana,USDC:tron,USDT:tron,USDC:base');
    expect(uncoveredLiveRoutes(registry, ['solana', 'tron'], routes)).toEqual([
      { route: { token: 'USDC', chain: 'tron' }, missing: 'contract' },
      { route: { token: 'USDC', chain: 'base' }, missing: 'indexer' },
    ]);
    expect(uncoveredLiveRoutes(registry, [], [])).toEqual([]);
  });
});
