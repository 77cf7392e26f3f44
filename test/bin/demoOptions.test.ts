// `npm run demo`'s arguments (bin/demo/demoOptions.ts): the pairs the local chains carry a whole route for, and a
// clear refusal of anything else before the demo starts a stack.
import { describe, expect, it } from 'vitest';
import { demoOptions } from '../../bin/demo/demoOptions';

describe('npm run demo arguments', () => {
  it('pays USDC on base unless told otherwise, and USDT on base or USDC on solana when asked', () => {
    expect(demoOptions([])).toEqual({ chain: 'base', token: 'USDC', refund: false });
    expect(demoOptions(['--chain', 'base', '--token', 'USDT'])).toEqual({ chain: 'base', token: 'USDT', refund: false });
    expect(demoOptions(['--token', 'USDT'])).toEqual({ chain: 'base', token: 'USDT', refund: false });
    expect(demoOptions(['--chain', 'solana'])).toEqual({ chain: 'solana', token: 'USDC', refund: false });
  });

  it('overpays in USDC on solana with --refund', () => {
    expect(demoOptions(['--refund'])).toEqual({ chain: 'solana', token: 'USDC', refund: true });
    expect(demoOptions(['--refund', '--chain', 'solana', '--token', 'USDC'])).toEqual({ chain: 'solana', token: 'USDC', refund: true });
  });

  it.each([
    [['--token', 'DAI'], /^--token takes USDC or USDT, not DAI\nusage: npm run demo -- \[--chain base\|solana\]/],
    [['--token'], /^--token takes USDC or USDT, not nothing/],
    [['--token', 'usdt'], /^--token takes USDC or USDT, not usdt/],
    [['--chain', 'tron'], /^--chain takes base or solana, not tron/],
    [['--chain', 'solana', '--token', 'USDT'], /^the demo pays USDT on base only: USDT on solana is held inventory/],
    [['--refund', '--chain', 'base'], /^--refund overpays on solana, not base/],
    [['--refund', '--token', 'USDT'], /^--refund overpays in USDC, not USDT/],
    [['--chain', 'base', '--chain', 'solana'], /^--chain is given twice/],
    [['--tokens', 'USDT'], /^unknown argument --tokens/],
  ])('refuses %j with a clear error', (args, message) => {
    expect(() => demoOptions(args)).toThrow(message);
  });
});
