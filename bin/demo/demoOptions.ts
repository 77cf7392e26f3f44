// What `npm run demo` is asked to show: the pair it pays with, and whether it overpays to show a refund. Read before
// anything starts, so a wrong argument costs nothing and says what the demo takes. The pairs are those the local
// chains carry a whole route for: USDC and USDT on the local Hardhat chain (base's test network: cctp and swap+cctp)
// and USDC on the local Solana chain (treasury).

export type DemoChain = 'base' | 'solana';
export type DemoToken = 'USDC' | 'USDT';

export interface DemoOptions {
  chain: DemoChain;
  token: DemoToken;
  /** Overpay on Solana and follow the excess back to the customer. */
  refund: boolean;
}

const CHAINS: readonly DemoChain[] = ['base', 'solana'];
const TOKENS: readonly DemoToken[] = ['USDC', 'USDT'];
const USAGE = 'npm run demo -- [--chain base|solana] [--token USDC|USDT] [--refund]';

export class DemoUsageError extends Error {
  constructor(reason: string) {
    super(`${reason}\nusage: ${USAGE}`);
  }
}

export function demoOptions(args: readonly string[]): DemoOptions {
  const given = new Map<string, string | undefined>();
  for (let at = 0; at < args.length; at++) {
    const name = args[at] ?? '';
    if (name !== '--chain' && name !== '--token' && name !== '--refund') throw new DemoUsageError(`unknown argument ${name}`);
    if (given.has(name)) throw new DemoUsageError(`${name} is given twice`);
    given.set(name, name === '--refund' ? undefined : args[++at]);
  }
  const chain = pick('--chain', given, CHAINS, 'base');
  const token = pick('--token', given, TOKENS, 'USDC');
  const refund = given.has('--refund');
  if (chain === 'solana' && token === 'USDT')
    throw new DemoUsageError(
      'the demo pays USDT on base only: USDT on solana is held inventory, brought back by an operator (docs/settlement.md#held-inventory)',
    );
  if (refund && (given.has('--chain') ? chain : 'solana') !== 'solana')
    throw new DemoUsageError(`--refund overpays on solana, not ${chain}`);
  if (refund && token !== 'USDC') throw new DemoUsageError(`--refund overpays in USDC, not ${token}`);
  return { chain: refund ? 'solana' : chain, token, refund };
}

function pick<T extends string>(name: string, given: Map<string, string | undefined>, allowed: readonly T[], fallback: T): T {
  if (!given.has(name)) return fallback;
  const value = given.get(name);
  const chosen = allowed.find((option) => option === value);
  if (!chosen) throw new DemoUsageError(`${name} takes ${allowed.join(' or ')}, not ${value ?? 'nothing'}`);
  return chosen;
}
