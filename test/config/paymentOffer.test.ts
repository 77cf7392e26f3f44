// The offer read from the configuration: the indexed chains are those with RPC_URLS_*, and a production start whose
// SETTLEMENT_LIVE_ROUTES lists a pair it cannot see or has no contract for refuses, naming the variable to set.
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
        SETTLEMENT_LIVE_ROUTES: 'USDC:solana,USDT:tron',
        RPC_URLS_SOLANA_MAINNET: 'https://solana.example',
      });
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(
      'invalid configuration: SETTLEMENT_LIVE_ROUTES: lists USDT:tron, but no indexer watches tron on mainnet: set RPC_URLS_TRON_MAINNET, or remove USDT:tron from SETTLEMENT_LIVE_ROUTES',
    );
  });

  it('in production, refuses a live route whose token has no mainnet contract, naming TOKEN_<TOKEN>_<CHAIN>_MAINNET', () => {
    expect(() =>
      offerOf({ APP_ENV: 'production', SETTLEMENT_LIVE_ROUTES: 'USDC:tron', RPC_URLS_TRON_MAINNET: 'https://tron.example' }),
    ).toThrow(
      'SETTLEMENT_LIVE_ROUTES: lists USDC:tron, but USDC has no mainnet contract on tron: set TOKEN_USDC_TRON_MAINNET (with ALLOW_MAINNET_TOKEN_OVERRIDES=true)',
    );
  });

  it('in production, starts when every live route is seen, or none is listed', () => {
    expect(() => offerOf({ APP_ENV: 'production', RPC_URLS_SOLANA_MAINNET: 'https://solana.example' })).not.toThrow();
    expect(offerOf({ APP_ENV: 'production', SETTLEMENT_LIVE_ROUTES: '' }).liveRoutes).toEqual([]);
  });

  it('elsewhere (npm start, tests: no mainnet endpoint) starts, and the unseen live pair is simply not offered', () => {
    expect(offerOf({}).indexed.mainnet).toEqual([]);
  });
});
