import { describe, expect, it } from 'vitest';
import { withdrawalShortfall } from '../../../domain/inventory/withdrawableAmount';

describe('withdrawalShortfall', () => {
  const withdrawal = { amount: 5n, token: 'USDT' };
  it('passes an amount both the ledger and the chain hold, to the unit', () => {
    expect(withdrawalShortfall(withdrawal, { ledger: 5n, chain: 5n })).toBeUndefined();
  });
  it('refuses more than the ledger holds, whatever the chain holds (tokens sent to the collector unswept are no one’s inventory)', () => {
    expect(withdrawalShortfall(withdrawal, { ledger: 4n, chain: 100n })).toBe(
      'the ledger holds 4 base units of USDT in the collector, less than 5',
    );
  });
  it('refuses more than the chain holds, whatever the ledger says', () => {
    expect(withdrawalShortfall(withdrawal, { ledger: 100n, chain: 4n })).toBe(
      'the collector holds 4 base units of USDT at depth, less than 5',
    );
  });
});
