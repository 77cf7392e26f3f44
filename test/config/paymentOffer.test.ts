// The offer read from the configuration: the indexed chains are those with RPC_URLS_*, and a production start whose
// SETTLEMENT_LIVE_ROUTES lists a pair whose route lacks something (or that has no route) refuses, naming each missing
// piece and the variable to set; elsewhere such a pair is not offered.
import { describe, expect, it } from 'vitest';
import { loadChainsConfig } from '../../config/chains';
import { ConfigError, loadConfig } from '../../config/env';
import { paymentOfferFromConfig } from '../../config/paymentOffer';
import { createChainRegistry } from '../../domain/chains/chainRegistry';

// A production API also needs a Temporal credential: an API key stands in for one.
const SECRET = { SESSION_TOKEN_SECRET: 'Zq7vP2xL9mWc4RtY8bNf3KdH6sJg1Ua5eT0iOp', TEMPORAL_API_KEY: 'key-from-cloud' };

function offerOf(env: Record<string, string>) {
  return paymentOfferFromConfig(loadConfig({ ...SECRET, ...env }, 'api'), createChainRegistry(loadChainsConfig(env)));
}

describe('payment offer from the configuration', () => {
  it('takes the chains with an RPC URL as indexed, per network, and the live routes as listed', () => {
    const offer = offerOf({
      RPC_URLS_SOLANA_MAINNET: 'https://solana.example',
      RPC_URLS_BASE_TESTNET: 'https://base.example',
      SETTLEMENT_LIVE_ROUTES: 'USDC:solana',
    });
    expect(offer).toEqual({ liveRoutes: [{ token: 'USDC', chain: 'solana' }], indexed: { testnet: ['base'], mainnet: ['solana'] } });
  });

  it('in production, refuses a live route without an RPC URL, naming RPC_URLS_<CHAIN>_MAINNET', () => {
    const start = () =>
      offerOf({
        APP_ENV: 'production',
        SETTLEMENT_LIVE_ROUTES: 'USDC:solana,USDC:bsc',
        RPC_URLS_SOLANA_MAINNET: 'https://solana.example',
        EVM_DEPOSIT_COLLECTOR_LIVE: '0x00000000000000000000000000000000000000c0',
      });
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(
      'invalid configuration: SETTLEMENT_LIVE_ROUTES: lists USDC:bsc, but no indexer watches bsc on mainnet: set RPC_URLS_BSC_MAINNET, no inventory cap for USDC:bsc: set INVENTORY_CAPS (USDC:bsc=<whole USD>), no rebalancing address on bsc: set INVENTORY_REBALANCE_ADDRESS_BSC_LIVE, or remove USDC:bsc from SETTLEMENT_LIVE_ROUTES',
    );
  });

  it('in production, refuses a CCTP route naming each missing piece, and the second RPC provider once the first is set', () => {
    const start = (env: Record<string, string>) => () => offerOf({ APP_ENV: 'production', SETTLEMENT_LIVE_ROUTES: 'USDC:base', ...env });
    expect(start({})).toThrow(
      'SETTLEMENT_LIVE_ROUTES: lists USDC:base, but no indexer watches base on mainnet: set RPC_URLS_BASE_MAINNET, no DepositCollector on base: set EVM_DEPOSIT_COLLECTOR_LIVE, no deposit contracts: set EVM_DEPOSIT_FACTORY_LIVE and EVM_DEPOSIT_FORWARDER_LIVE, or remove USDC:base',
    );
    expect(start({ RPC_URLS_BASE_MAINNET: 'https://base.example' })).toThrow(
      'lists USDC:base, but base has one RPC provider, not two: set RPC_URLS_BASE_MAINNET (two distinct URLs), no DepositCollector',
    );
  });

  it('in production, refuses a USDT route needing a swap (USDT on a CCTP chain) without its router and quoter', () => {
    expect(() =>
      offerOf({
        APP_ENV: 'production',
        SETTLEMENT_LIVE_ROUTES: 'USDT:arbitrum',
        RPC_URLS_ARBITRUM_MAINNET: 'https://arbitrum-one.example,https://arbitrum-two.example',
        EVM_DEPOSIT_COLLECTOR_LIVE: '0x00000000000000000000000000000000000000c0',
        EVM_DEPOSIT_FACTORY_LIVE: '0x00000000000000000000000000000000000000f0',
        EVM_DEPOSIT_FORWARDER_LIVE: '0x00000000000000000000000000000000000000f1',
      }),
    ).toThrow(
      'lists USDT:arbitrum, but no swap router on arbitrum: set SWAP_ROUTER_ARBITRUM_MAINNET, no swap quoter on arbitrum: set SWAP_QUOTER_ARBITRUM_MAINNET, or remove USDT:arbitrum',
    );
  });

  it('in production, refuses a pair with no route at all, even with its token contract overridden', () => {
    expect(() =>
      offerOf({ APP_ENV: 'production', SETTLEMENT_LIVE_ROUTES: 'USDC:tron', RPC_URLS_TRON_MAINNET: 'https://tron.example' }),
    ).toThrow(
      'SETTLEMENT_LIVE_ROUTES: lists USDC:tron, but USDC on tron has no route to the Solana USDC treasury (docs/settlement.md#routes): remove USDC:tron from SETTLEMENT_LIVE_ROUTES',
    );
  });

  it('in production, starts when every live route is seen, or none is listed', () => {
    expect(() => offerOf({ APP_ENV: 'production', RPC_URLS_SOLANA_MAINNET: 'https://solana.example' })).not.toThrow();
    expect(offerOf({ APP_ENV: 'production', SETTLEMENT_LIVE_ROUTES: '' }).liveRoutes).toEqual([]);
  });

  it('elsewhere (npm start, tests: no mainnet endpoint) starts, and a live pair whose route lacks something is simply not offered', () => {
    expect(offerOf({}).indexed.mainnet).toEqual([]);
    expect(offerOf({}).liveRoutes).toEqual([]);
    const offer = offerOf({
      SETTLEMENT_LIVE_ROUTES: 'USDC:solana,USDC:base,USDT:tron,USDC:tron',
      RPC_URLS_SOLANA_MAINNET: 'https://solana.example',
      RPC_URLS_BASE_MAINNET: 'https://base.example',
      RPC_URLS_TRON_MAINNET: 'https://tron.example',
    });
    expect(offer.liveRoutes).toEqual([{ token: 'USDC', chain: 'solana' }]);
  });
});
