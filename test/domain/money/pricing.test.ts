// Live prices as the operator configures them (LIVE_TOKEN_PRICES_USD): none is assumed, and a rate above 1 is
// refused, since the signer backs each payout with the deposit's units 1:1 and would refuse every payment at it.
import { describe, expect, it } from 'vitest';
import { parseLivePrices, tokenPrice } from '../../../domain/money/pricing';

describe('live token prices', () => {
  it('reads rates of 1 and below exactly', () => {
    expect(parseLivePrices('USDC=1, USDT=0.9998')).toEqual({
      USDC: { numerator: 1n, denominator: 1n, text: '1' },
      USDT: { numerator: 9998n, denominator: 10000n, text: '0.9998' },
    });
    expect(parseLivePrices('USDC=1.000')).toEqual({ USDC: { numerator: 1000n, denominator: 1000n, text: '1.000' } });
    expect(parseLivePrices(undefined)).toEqual({});
  });

  it.each(['USDT=1.0001', 'USDC=2', 'USDC=1.000000000000000001'])('refuses %s, naming the token and the reason', (entry) => {
    const [token] = entry.split('=');
    expect(() => parseLivePrices(`USDC=1,${entry}`)).toThrow(
      new RegExp(
        `^${entry.replace(/\./g, '\\.')} is above 1: the signer backs a payout with the deposit's units 1:1, .* set ${token} to 1 or below$`,
      ),
    );
  });

  it('prices test mode at 1 whatever is configured, and live mode only from the configuration', () => {
    const live = parseLivePrices('USDT=0.9998');
    expect(tokenPrice('test', 'USDT', live).rate.text).toBe('1');
    expect(tokenPrice('live', 'USDT', live).rate.text).toBe('0.9998');
    expect(() => tokenPrice('live', 'USDC', live)).toThrow('no price is configured');
  });
});
