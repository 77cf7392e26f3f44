// Every pair's route back to the Solana USDC treasury, and what each route lacks until its pieces are configured.
import { describe, expect, it } from 'vitest';
import type { Chain, TokenSymbol } from '../../../domain/chains/chains';
import { ALL_PAIRS, pairRoute, pairRouteStatuses, routeGaps, type PairRouteFacts } from '../../../domain/settlement/pairRoutes';
import { parseLiveRoutes } from '../../../domain/settlement/settlementRoute';

const NOTHING: PairRouteFacts = {
  contract: false,
  usdcContract: false,
  indexed: false,
  rpcUrls: [],
  depositFactory: false,
  cctpContracts: false,
};

const EVERYTHING: PairRouteFacts = {
  contract: true,
  usdcContract: true,
  indexed: true,
  rpcUrls: ['https://one.example', 'https://two.example'],
  collector: '0x00000000000000000000000000000000000000c0',
  depositFactory: true,
  cctpAttestationUrl: 'https://iris-api.circle.com',
  cctpContracts: true,
  swap: { router: '0x00000000000000000000000000000000000000a1', quoter: '0x00000000000000000000000000000000000000a2' },
  inventory: { cap: 5_000, rebalanceAddress: '0x00000000000000000000000000000000000000b1' },
};

const lacks = (token: TokenSymbol, chain: Chain, facts: PairRouteFacts) => routeGaps('live', token, chain, facts).map((gap) => gap.set);

describe('the route of each pair', () => {
  it('declares the treasury for solana USDC, CCTP for the other CCTP chains USDC, a swap first for their USDT, inventory held elsewhere', () => {
    const table = Object.fromEntries(ALL_PAIRS.map(({ token, chain }) => [`${token}:${chain}`, pairRoute(token, chain)]));
    expect(table).toEqual({
      'USDC:ethereum': 'cctp',
      'USDC:polygon': 'cctp',
      'USDC:arbitrum': 'cctp',
      'USDC:optimism': 'cctp',
      'USDC:base': 'cctp',
      'USDC:bsc': 'hold',
      'USDC:solana': 'treasury',
      'USDC:tron': null,
      'USDT:ethereum': 'swap+cctp',
      'USDT:polygon': 'swap+cctp',
      'USDT:arbitrum': 'swap+cctp',
      'USDT:optimism': 'swap+cctp',
      'USDT:base': 'swap+cctp',
      'USDT:bsc': 'hold',
      'USDT:solana': 'hold',
      'USDT:tron': 'hold',
    });
  });
});

describe('what a route lacks', () => {
  // Every pair with nothing configured, in live mode: the variables to set, in the order an operator sets them up.
  const cctp = (chain: string) => [
    `TOKEN_USDC_${chain}_MAINNET (with ALLOW_MAINNET_TOKEN_OVERRIDES=true)`,
    `RPC_URLS_${chain}_MAINNET`,
    'EVM_DEPOSIT_COLLECTOR_LIVE',
    'EVM_DEPOSIT_FACTORY_LIVE and EVM_DEPOSIT_FORWARDER_LIVE',
    'CCTP_ATTESTATION_URL',
    'nothing: CCTP does not serve this chain',
  ];
  const swapCctp = (chain: string) => [
    `TOKEN_USDT_${chain}_MAINNET (with ALLOW_MAINNET_TOKEN_OVERRIDES=true)`,
    `RPC_URLS_${chain}_MAINNET`,
    'EVM_DEPOSIT_COLLECTOR_LIVE',
    `TOKEN_USDC_${chain}_MAINNET (with ALLOW_MAINNET_TOKEN_OVERRIDES=true)`,
    'EVM_DEPOSIT_FACTORY_LIVE and EVM_DEPOSIT_FORWARDER_LIVE',
    'CCTP_ATTESTATION_URL',
    'nothing: CCTP does not serve this chain',
    `SWAP_ROUTER_${chain}_MAINNET`,
    `SWAP_QUOTER_${chain}_MAINNET`,
  ];
  const hold = (token: TokenSymbol, chain: Chain, collector: string | undefined) => [
    `TOKEN_${token}_${chain.toUpperCase()}_MAINNET (with ALLOW_MAINNET_TOKEN_OVERRIDES=true)`,
    `RPC_URLS_${chain.toUpperCase()}_MAINNET`,
    ...(collector ? [collector] : []),
    `INVENTORY_CAPS (${token}:${chain}=<whole USD>)`,
    `INVENTORY_REBALANCE_ADDRESS_${chain.toUpperCase()}_LIVE`,
  ];
  const expected: Record<string, string[]> = {
    'USDC:ethereum': cctp('ETHEREUM'),
    'USDC:polygon': cctp('POLYGON'),
    'USDC:arbitrum': cctp('ARBITRUM'),
    'USDC:optimism': cctp('OPTIMISM'),
    'USDC:base': cctp('BASE'),
    'USDC:bsc': hold('USDC', 'bsc', 'EVM_DEPOSIT_COLLECTOR_LIVE'),
    'USDC:solana': ['TOKEN_USDC_SOLANA_MAINNET (with ALLOW_MAINNET_TOKEN_OVERRIDES=true)', 'RPC_URLS_SOLANA_MAINNET'],
    'USDC:tron': ['nothing: no route exists'],
    'USDT:ethereum': swapCctp('ETHEREUM'),
    'USDT:polygon': swapCctp('POLYGON'),
    'USDT:arbitrum': swapCctp('ARBITRUM'),
    'USDT:optimism': swapCctp('OPTIMISM'),
    'USDT:base': swapCctp('BASE'),
    'USDT:bsc': hold('USDT', 'bsc', 'EVM_DEPOSIT_COLLECTOR_LIVE'),
    'USDT:solana': hold('USDT', 'solana', undefined),
    'USDT:tron': hold('USDT', 'tron', 'TRON_DEPOSIT_COLLECTOR_LIVE'),
  };

  it.each(ALL_PAIRS.map(({ token, chain }) => [`${token}:${chain}`, token, chain] as const))(
    '%s: names every missing piece with nothing configured, and nothing once all is',
    (pair, token, chain) => {
      expect(lacks(token, chain, NOTHING)).toEqual(expected[pair]);
      expect(lacks(token, chain, EVERYTHING)).toEqual(pairRoute(token, chain) === null ? ['nothing: no route exists'] : []);
    },
  );

  it('asks live EVM routes for a second, distinct RPC provider, but not the treasury route nor test mode', () => {
    const oneProvider = { ...EVERYTHING, rpcUrls: ['https://one.example', 'https://one.example/'] };
    expect(lacks('USDC', 'base', oneProvider)).toEqual(['RPC_URLS_BASE_MAINNET (two distinct URLs)']);
    expect(lacks('USDT', 'bsc', oneProvider)).toEqual(['RPC_URLS_BSC_MAINNET (two distinct URLs)']);
    expect(lacks('USDC', 'solana', oneProvider)).toEqual([]);
    expect(routeGaps('test', 'USDC', 'base', oneProvider)).toEqual([]);
  });

  it('names the test variables in test mode', () => {
    expect(
      routeGaps('test', 'USDT', 'base', {
        ...NOTHING,
        contract: true,
        usdcContract: true,
        indexed: true,
        cctpContracts: true,
        cctpAttestationUrl: 'x',
      }),
    ).toEqual([
      { lacks: 'no DepositCollector on base', set: 'EVM_DEPOSIT_COLLECTOR_TEST' },
      { lacks: 'no deposit contracts', set: 'EVM_DEPOSIT_FACTORY_TEST and EVM_DEPOSIT_FORWARDER_TEST' },
      { lacks: 'no swap router on base', set: 'SWAP_ROUTER_BASE_TESTNET' },
      { lacks: 'no swap quoter on base', set: 'SWAP_QUOTER_BASE_TESTNET' },
    ]);
  });
});

describe('the status of every pair', () => {
  it('is ready in live mode only when listed in SETTLEMENT_LIVE_ROUTES and lacking nothing', () => {
    const statuses = pairRouteStatuses('live', parseLiveRoutes('USDC:solana,USDC:base,USDC:tron'), (token, chain) =>
      chain === 'solana' ? EVERYTHING : { ...EVERYTHING, collector: undefined },
    );
    expect(statuses).toHaveLength(16);
    const of = (pair: string) => statuses.find(({ token, chain }) => `${token}:${chain}` === pair);
    expect(of('USDC:solana')).toMatchObject({ route: 'treasury', ready: true, listed: true, gaps: [] });
    expect(of('USDT:solana')).toMatchObject({ route: 'hold', ready: false, listed: false, gaps: [] });
    expect(of('USDC:base')).toMatchObject({ route: 'cctp', ready: false, listed: true, gaps: [{ set: 'EVM_DEPOSIT_COLLECTOR_LIVE' }] });
    expect(of('USDC:tron')).toMatchObject({ route: null, ready: false, listed: true });
  });

  it('in test mode needs no listing', () => {
    const statuses = pairRouteStatuses('test', [], () => EVERYTHING);
    expect(statuses.filter((status) => status.ready).map(({ token, chain }) => `${token}:${chain}`)).not.toContain('USDC:tron');
    expect(statuses.filter((status) => status.ready)).toHaveLength(15);
  });
});
