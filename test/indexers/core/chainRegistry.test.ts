import { HttpRequestError, InvalidParamsRpcError, LimitExceededRpcError, RpcRequestError, TimeoutError } from 'viem';
import { describe, expect, test } from 'vitest';
import { loadChainsConfig } from '../../../config/chains';
import { ConfigError } from '../../../config/env';
import { createChainRegistry } from '../../../domain/chains/chainRegistry';
import { CHAIN_FACTS } from '../../../domain/chains/chains';
import { TOKEN_CONTRACTS } from '../../../domain/chains/tokenContracts';
import { classifyEvmRpcError } from '../../../indexers/evm/evmRpc';

describe('chain configuration and registry', () => {
  test('defaults: published contracts, CHAIN_FACTS depths, nothing indexed without an RPC URL', () => {
    const config = loadChainsConfig({});
    expect(config.indexer).toEqual({
      maxLogRange: 500,
      subscribedPollIntervalMs: 30_000,
      rpcTimeoutMs: 10_000,
      rpcAttempts: 4,
      rpcBackoffMs: 250,
      watchReloadMs: 60_000,
      watchGraceHours: 24,
    });
    const registry = createChainRegistry(config);
    const bsc = registry.get('bsc', 'mainnet');
    expect(bsc).toMatchObject({ chainId: 56, confirmations: 15, blockTimeMs: 3000, rpcUrls: [], wsUrls: [] });
    expect(bsc.tokens).toEqual([
      { symbol: 'USDC', address: TOKEN_CONTRACTS.USDC.bsc.mainnet?.address, decimals: 18 },
      { symbol: 'USDT', address: TOKEN_CONTRACTS.USDT.bsc.mainnet?.address, decimals: 18 },
    ]);
    expect(registry.get('ethereum', 'testnet')).toMatchObject({ chainId: 11155111, confirmations: CHAIN_FACTS.ethereum.confirmations });
    // No published USDT on Sepolia: only what a deployment configures.
    expect(registry.get('ethereum', 'testnet').tokens.map((t) => t.symbol)).toEqual(['USDC']);
    expect(registry.get('arbitrum', 'mainnet').blockTimeMs).toBe(250);
  });

  test('per chain and network overrides for a local test chain', () => {
    const registry = createChainRegistry(
      loadChainsConfig({
        RPC_URLS_BSC_TESTNET: 'http://127.0.0.1:8545, http://127.0.0.1:8546',
        WS_URLS_BSC_TESTNET: 'ws://127.0.0.1:8545',
        CHAIN_ID_BSC_TESTNET: '31337',
        TOKEN_USDT_BSC_TESTNET: '0x5fbdb2315678afecb367f032d93f642f64180aa3:18',
        INDEXER_START_BLOCK_BSC_TESTNET: '42',
        INDEXER_MAX_LOG_RANGE: '50',
      }),
    );
    expect(registry.get('bsc', 'testnet')).toMatchObject({
      rpcUrls: ['http://127.0.0.1:8545', 'http://127.0.0.1:8546'],
      wsUrls: ['ws://127.0.0.1:8545'],
      chainId: 31337,
      startBlock: 42n,
      tokens: [{ symbol: 'USDT', address: '0x5fbdb2315678afecb367f032d93f642f64180aa3', decimals: 18 }],
    });
    expect(registry.token('bsc', 'testnet', 'USDC')).toBeUndefined();
  });

  test('a mainnet token override is refused unless explicitly allowed; test-network overrides need no permission', () => {
    const override = { TOKEN_USDC_BASE_MAINNET: '0x5FbDB2315678afecb367f032d93F642f64180aa3:6' };
    expect(() => loadChainsConfig(override)).toThrow(
      /TOKEN_USDC_BASE_MAINNET: replaces a live token contract; set ALLOW_MAINNET_TOKEN_OVERRIDES=true/,
    );
    const allowed = createChainRegistry(loadChainsConfig({ ...override, ALLOW_MAINNET_TOKEN_OVERRIDES: 'true' }));
    expect(allowed.token('base', 'mainnet', 'USDC')).toMatchObject({ address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', decimals: 6 });
    expect(() => loadChainsConfig({ TOKEN_USDC_BASE_TESTNET: '0x5FbDB2315678afecb367f032d93F642f64180aa3:6' })).not.toThrow();
    expect(() => loadChainsConfig({ ALLOW_MAINNET_TOKEN_OVERRIDES: 'yes' })).toThrow(/ALLOW_MAINNET_TOKEN_OVERRIDES/);
  });

  test('invalid values are refused, each named', () => {
    expect(() =>
      loadChainsConfig({
        RPC_URLS_BASE_MAINNET: 'not a url',
        TOKEN_USDC_BASE_MAINNET: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02914:6',
        INDEXER_MAX_LOG_RANGE: '0',
      }),
    ).toThrow(ConfigError);
    try {
      loadChainsConfig({
        RPC_URLS_BASE_MAINNET: 'not a url',
        TOKEN_USDC_BASE_MAINNET: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02914:6',
        INDEXER_MAX_LOG_RANGE: '0',
      });
    } catch (error) {
      expect((error as Error).message).toMatch(/RPC_URLS_BASE_MAINNET/);
      // A mistyped checksummed address is caught rather than silently watching another contract.
      expect((error as Error).message).toMatch(/TOKEN_USDC_BASE_MAINNET: is not an EVM address/);
      expect((error as Error).message).toMatch(/INDEXER_MAX_LOG_RANGE/);
    }
  });

  test('websocket endpoints must be ws(s) URLs, and only EVM chains take them', () => {
    expect(() => loadChainsConfig({ WS_URLS_BASE_MAINNET: 'https://base.example' })).toThrow(/WS_URLS_BASE_MAINNET/);
    expect(() => loadChainsConfig({ RPC_URLS_BASE_MAINNET: 'wss://base.example' })).toThrow(/RPC_URLS_BASE_MAINNET/);
    expect(() => loadChainsConfig({ WS_URLS_TRON_MAINNET: 'wss://tron.example' })).toThrow(
      /WS_URLS_TRON_MAINNET: new-head subscriptions are for EVM chains only/,
    );
    expect(loadChainsConfig({ WS_URLS_BASE_MAINNET: 'wss://a.example,ws://b.example' }).networks.base.mainnet.wsUrls).toEqual([
      'wss://a.example',
      'ws://b.example',
    ]);
  });
});

describe('EVM RPC error classes', () => {
  const url = 'http://rpc.example';
  test.each([
    [new TimeoutError({ body: {}, url }), 'timeout'],
    [new HttpRequestError({ url, status: 429 }), 'rate-limited'],
    [new HttpRequestError({ url, status: 503 }), 'server'],
    [new HttpRequestError({ url, status: 401 }), 'fatal'],
    [new HttpRequestError({ url, cause: new TypeError('fetch failed') }), 'network'],
    [
      new LimitExceededRpcError(
        new RpcRequestError({ body: {}, url, error: { code: -32005, message: 'daily request count exceeded, request rate limited' } }),
      ),
      'rate-limited',
    ],
    [
      new LimitExceededRpcError(
        new RpcRequestError({ body: {}, url, error: { code: -32005, message: 'query returned more than 10000 results' } }),
      ),
      'range-too-large',
    ],
    [
      new InvalidParamsRpcError(
        new RpcRequestError({ body: {}, url, error: { code: -32602, message: 'Log response size exceeded. Block range is too large' } }),
      ),
      'range-too-large',
    ],
    [new InvalidParamsRpcError(new RpcRequestError({ body: {}, url, error: { code: -32602, message: 'invalid argument 0' } })), 'fatal'],
  ] as const)('%s → %s', (error, expected) => {
    expect(classifyEvmRpcError(error)).toBe(expected);
  });
});
