import { describe, expect, it } from 'vitest';
import { capCrossings, inventoryCapFor, isAtCap, parseInventoryCaps } from '../../../domain/inventory/inventoryCaps';

describe('parseInventoryCaps', () => {
  it('reads whole USD per held pair, and leaves a pair it does not name uncapped', () => {
    const caps = parseInventoryCaps(' USDT:tron=50000, USDC:bsc=0 ,');
    expect(inventoryCapFor(caps, { token: 'USDT', chain: 'tron' })).toBe(50_000n);
    expect(inventoryCapFor(caps, { token: 'USDC', chain: 'bsc' })).toBe(0n);
    expect(inventoryCapFor(caps, { token: 'USDT', chain: 'bsc' })).toBeUndefined();
    expect(parseInventoryCaps('').size).toBe(0);
  });

  it('refuses an entry that is not a held pair with a whole amount, naming it', () => {
    expect(() => parseInventoryCaps('USDT:tron=1.5')).toThrow('"USDT:tron=1.5" is not TOKEN:chain=<whole USD>');
    expect(() => parseInventoryCaps('USDC:base=100')).toThrow('USDC:base is not held as inventory');
    expect(() => parseInventoryCaps('DAI:bsc=1')).toThrow('is not TOKEN:chain');
    expect(() => parseInventoryCaps('USDT:tron=1,USDT:tron=2')).toThrow('capped twice');
    expect(() => parseInventoryCaps('USDT:solana=9999999999')).toThrow('at most');
  });
});

describe('isAtCap', () => {
  it('compares base units with whole dollars at the token’s decimals, from the cap on', () => {
    expect(isAtCap(99_999_999n, 100n, 6)).toBe(false);
    expect(isAtCap(100_000_000n, 100n, 6)).toBe(true);
    expect(isAtCap(100n * 10n ** 18n - 1n, 100n, 18)).toBe(false);
    expect(isAtCap(100n * 10n ** 18n, 100n, 18)).toBe(true);
  });

  it('never caps a pair without a cap, and caps one at 0 from the start', () => {
    expect(isAtCap(10n ** 30n, undefined, 6)).toBe(false);
    expect(isAtCap(0n, 0n, 6)).toBe(true);
  });
});

describe('capCrossings', () => {
  it('names each pair that reached its cap and each that fell below, once', () => {
    expect(capCrossings(new Set(['USDT:tron']), new Set(['USDT:tron', 'USDT:bsc']))).toEqual({ reached: ['USDT:bsc'], left: [] });
    expect(capCrossings(new Set(['USDT:tron', 'USDT:bsc']), new Set(['USDT:bsc']))).toEqual({ reached: [], left: ['USDT:tron'] });
    expect(capCrossings(new Set(['USDT:bsc']), new Set(['USDT:bsc']))).toEqual({ reached: [], left: [] });
  });
});
