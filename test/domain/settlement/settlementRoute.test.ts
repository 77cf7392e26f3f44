// The treasury pays only for chain-verified money: every test pair, the live pairs the operator
// listed; simulated receipts never (bank transfers have no route: the merchant holds them); a malformed route list is
// refused at start.
import { describe, expect, it } from 'vitest';
import { CCTP_SOURCE_DOMAINS, type CctpSourceChain } from '../../../domain/cctp/domains';
import { DEFAULT_LIVE_ROUTES, parseLiveRoutes, settlementRoute } from '../../../domain/settlement/settlementRoute';

const live = parseLiveRoutes(DEFAULT_LIVE_ROUTES);

describe('settlement route', () => {
  it('test mode: the treasury for any chain deposit, the simulator for simulated receipts', () => {
    expect(settlementRoute({ mode: 'test', chain: 'base', token: 'USDC', backing: 'chain' }, [])).toBe('treasury');
    expect(settlementRoute({ mode: 'test', chain: 'tron', token: 'USDT', backing: 'chain' }, [])).toBe('treasury');
    expect(settlementRoute({ mode: 'test', chain: 'solana', token: 'USDC', backing: 'simulated' }, live)).toBe('simulated');
  });

  it('live mode: the treasury only for a listed pair (USDC on solana by default), never for a simulated receipt', () => {
    expect(live).toEqual([{ token: 'USDC', chain: 'solana' }]);
    expect(settlementRoute({ mode: 'live', chain: 'solana', token: 'USDC', backing: 'chain' }, live)).toBe('treasury');
    expect(settlementRoute({ mode: 'live', chain: 'base', token: 'USDC', backing: 'chain' }, live)).toBe('unavailable');
    expect(settlementRoute({ mode: 'live', chain: 'solana', token: 'USDT', backing: 'chain' }, live)).toBe('unavailable');
    expect(settlementRoute({ mode: 'live', chain: 'solana', token: 'USDC', backing: 'simulated' }, live)).toBe('unavailable');
    expect(settlementRoute({ mode: 'live', chain: 'solana', token: 'USDC', backing: 'chain' }, [])).toBe('unavailable');
  });

  it('live mode: USDC on each CCTP source chain once listed, whose transfers refill the treasury', () => {
    const cctpChains = Object.keys(CCTP_SOURCE_DOMAINS) as CctpSourceChain[];
    const routes = parseLiveRoutes(['USDC:solana', ...cctpChains.map((chain) => `USDC:${chain}`)].join(','));
    for (const chain of cctpChains)
      expect(settlementRoute({ mode: 'live', chain, token: 'USDC', backing: 'chain' }, routes)).toBe('treasury');
    expect(settlementRoute({ mode: 'live', chain: 'bsc', token: 'USDC', backing: 'chain' }, routes)).toBe('unavailable');
  });

  it('parses a list of TOKEN:chain pairs and refuses anything else', () => {
    expect(parseLiveRoutes(' USDC:solana, USDT:tron ,')).toEqual([
      { token: 'USDC', chain: 'solana' },
      { token: 'USDT', chain: 'tron' },
    ]);
    expect(parseLiveRoutes('')).toEqual([]);
    expect(() => parseLiveRoutes('USDC:solana,DAI:base')).toThrow(/"DAI:base" is not a TOKEN:chain pair/);
    expect(() => parseLiveRoutes('solana:USDC')).toThrow(/is not a TOKEN:chain pair/);
    expect(() => parseLiveRoutes('USDC:solana:x')).toThrow(/is not a TOKEN:chain pair/);
  });
});
