// A pair is offered only where this deployment sees and settles it: the network's contract, an indexer on the chain,
// and in live mode a configured settlement route (SETTLEMENT_LIVE_ROUTES).
import { describe, expect, it } from 'vitest';
import { createChainRegistry, type ChainNetworkConfig } from '../../../domain/chains/chainRegistry';
import { ALL_TOKEN_CHAIN_PAIRS, CHAINS, type Chain } from '../../../domain/chains/chains';
import { indexedChains } from '../../../domain/chains/indexedChains';
import { isPayable, payablePairs, type PaymentOffer } from '../../../domain/session/payablePairs';
import { parseLiveRoutes } from '../../../domain/settlement/settlementRoute';

const unconfigured: ChainNetworkConfig = { rpcUrls: [], wsUrls: [], tokens: {} };
/** The published contracts, with RPC URLs for `rpc`'s `chain:network` entries. */
function registryWith(rpc: string[]) {
  const networks = Object.fromEntries(
    CHAINS.map((chain) => [
      chain,
      {
        testnet: { ...unconfigured, rpcUrls: rpc.includes(`${chain}:testnet`) ? ['http://node.test'] : [] },
        mainnet: { ...unconfigured, rpcUrls: rpc.includes(`${chain}:mainnet`) ? ['http://node.test'] : [] },
      },
    ]),
  ) as Record<Chain, Record<'testnet' | 'mainnet', ChainNetworkConfig>>;
  return createChainRegistry({ networks });
}

describe('payable pairs', () => {
  it('live mode offers only the merchant pairs with a settlement route, a mainnet contract and an indexer', () => {
    const registry = registryWith(['solana:mainnet', 'base:mainnet', 'tron:mainnet']);
    const offer: PaymentOffer = {
      liveRoutes: parseLiveRoutes('USDC:solana,USDC:base,USDC:ethereum'),
      indexed: indexedChains(registry.all()),
    };
    // USDT on tron and on solana: indexed, no route. USDC on ethereum: routed, no indexer.
    expect(payablePairs(registry, offer, 'live', ALL_TOKEN_CHAIN_PAIRS)).toEqual({ USDC: ['base', 'solana'] });
    expect(payablePairs(registry, offer, 'live', { USDC: ['solana'], USDT: ['tron'] })).toEqual({ USDC: ['solana'] });
    expect(isPayable(registry, offer, 'live', 'USDT', 'tron')).toBe(false);
    expect(isPayable(registry, offer, 'live', 'USDC', 'ethereum')).toBe(false);
  });

  it('test mode offers every indexed test-network pair with a contract, whatever the live routes', () => {
    const registry = registryWith(['base:testnet', 'solana:testnet', 'solana:mainnet']);
    const offer: PaymentOffer = { liveRoutes: [], indexed: indexedChains(registry.all()) };
    expect(payablePairs(registry, offer, 'test', ALL_TOKEN_CHAIN_PAIRS)).toEqual({ USDC: ['base', 'solana'] });
    expect(payablePairs(registry, offer, 'live', ALL_TOKEN_CHAIN_PAIRS)).toEqual({});
  });

  it('no indexer, nothing offered; a pair without a contract is never offered, indexed or not', () => {
    const registry = registryWith([]);
    expect(
      payablePairs(
        registry,
        { liveRoutes: parseLiveRoutes('USDC:solana'), indexed: indexedChains(registry.all()) },
        'live',
        ALL_TOKEN_CHAIN_PAIRS,
      ),
    ).toEqual({});
    const everywhere: PaymentOffer = { liveRoutes: parseLiveRoutes('USDC:tron'), indexed: { testnet: CHAINS, mainnet: CHAINS } };
    expect(isPayable(registry, everywhere, 'live', 'USDC', 'tron')).toBe(false);
    expect(isPayable(registry, everywhere, 'test', 'USDT', 'solana')).toBe(false);
  });
});
