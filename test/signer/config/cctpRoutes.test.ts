import { createSolanaRpc, generateKeyPairSigner, address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import type { TreasuryPayoutDeps } from '../../../signer/payouts/treasuryPayout';
import { loadChainsConfig } from '../../../config/chains';
import { ConfigError, loadConfig } from '../../../config/env';
import type { Sql } from '../../../db/client';
import { createChainRegistry } from '../../../domain/chains/chainRegistry';
import { cctpRoutesFromConfig } from '../../../signer/config/cctpRoutes';
import { swapRoutesFromConfig } from '../../../signer/config/swapRoutes';

// Hardhat's published account #2: a relayer key nobody uses for money.
const RELAYER_KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const COLLECTOR = '0x90f79bf6eb2c4f870365e785982e1f101e93b906';

describe('the signer’s CCTP routes from configuration', () => {
  it('makes a route per CCTP chain with an endpoint, for a mode with a relayer, a collector and a treasury; Fast only where offered', async () => {
    const env = {
      SIGNER_MODE: 'test',
      EVM_RELAYER_KEY_TEST: RELAYER_KEY,
      EVM_DEPOSIT_COLLECTOR_TEST: COLLECTOR,
      CCTP_FAST_CHAINS: 'base,polygon',
      TRANSFER_MINIMUM_USDC: '250',
      CCTP_MAX_FEE_BPS: '15',
    };
    const chains = { RPC_URLS_BASE_TESTNET: 'http://127.0.0.1:1', RPC_URLS_POLYGON_TESTNET: 'http://127.0.0.1:2' };
    const config = loadConfig(env, 'signer');
    const treasury = {
      sql: {} as Sql,
      rpc: createSolanaRpc('http://127.0.0.1:3'),
      treasury: await generateKeyPairSigner(),
      usdcMint: address('4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU'),
    } as TreasuryPayoutDeps;
    const routes = cctpRoutesFromConfig(config, createChainRegistry(loadChainsConfig(chains)), { test: treasury });
    expect(Object.keys(routes.test ?? {}).sort()).toEqual(['base', 'polygon']);
    expect(routes.test?.base).toMatchObject({ speed: 'fast', maxFeeBps: 15, minimum: 250_000_000n, collector: COLLECTOR });
    expect(routes.test?.polygon?.speed).toBe('standard');
    expect(routes.live).toBeUndefined();
    expect(cctpRoutesFromConfig(config, createChainRegistry(loadChainsConfig(chains)), {})).toEqual({});
  });

  it('makes a swap route where a CCTP route’s chain has USDT and a router and quoter, with the transfer minimum in USDT', async () => {
    const router = '0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45';
    const quoter = '0x61ffe014ba17989e743c5f6cb21bf9697530b21e';
    const env = {
      SIGNER_MODE: 'test',
      EVM_RELAYER_KEY_TEST: RELAYER_KEY,
      EVM_DEPOSIT_COLLECTOR_TEST: COLLECTOR,
      TRANSFER_MINIMUM_USDC: '250',
      SWAP_ROUTER_BASE_TESTNET: router,
      SWAP_QUOTER_BASE_TESTNET: quoter,
      SWAP_MAX_DEVIATION_BPS: '30',
    };
    const chains = {
      RPC_URLS_BASE_TESTNET: 'http://127.0.0.1:1',
      RPC_URLS_POLYGON_TESTNET: 'http://127.0.0.1:2',
      TOKEN_USDT_BASE_TESTNET: '0x1111111111111111111111111111111111111111:6',
    };
    const config = loadConfig(env, 'signer');
    const treasury = { sql: {} as Sql } as TreasuryPayoutDeps;
    const registry = createChainRegistry(loadChainsConfig(chains));
    const cctp = cctpRoutesFromConfig(config, registry, { test: treasury });
    const routes = swapRoutesFromConfig(config, registry, cctp);
    expect(Object.keys(routes.test ?? {})).toEqual(['base']);
    expect(routes.test?.base).toMatchObject({
      router,
      quoter,
      poolFee: 100,
      maxDeviationBps: 30,
      minimum: 250_000_000n,
      collector: COLLECTOR,
      usdt: { address: '0x1111111111111111111111111111111111111111', decimals: 6 },
    });
    expect(routes.test?.base?.writer).toBe(cctp.test?.base?.writer);
    expect(swapRoutesFromConfig(config, registry, {})).toEqual({});
  });

  it('refuses a Fast chain CCTP does not carry, and a collector that is not an address', () => {
    expect(() => loadConfig({ CCTP_FAST_CHAINS: 'bsc' }, 'signer')).toThrow(ConfigError);
    expect(() => loadConfig({ EVM_DEPOSIT_COLLECTOR_LIVE: '0x1234' }, 'signer')).toThrow(/EVM_DEPOSIT_COLLECTOR_LIVE/);
    expect(() => loadConfig({ CCTP_MAX_FEE_BPS: '101' }, 'signer')).toThrow(/CCTP_MAX_FEE_BPS/);
    expect(() => loadConfig({ CCTP_MAX_FEE_BPS: '-1' }, 'signer')).toThrow(/CCTP_MAX_FEE_BPS/);
    expect(loadConfig({}, 'worker')).toMatchObject({
      transferIntervalSeconds: 300,
      transferMinimumUsdc: 100,
      cctpFastChains: [],
      cctpMaxFeeBps: 20,
    });
  });
});
