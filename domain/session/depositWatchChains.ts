// Where a session's deposit address is watched. An EVM deposit address (HD or CREATE2) is the same on every EVM chain,
// so a customer can send the right token to it on a chain other than the one chosen; it is watched on every EVM chain
// of the network that has a USDC or USDT contract, so such a deposit is recorded and kept for a refund
// (sessionLedger.ts, depositMismatch) instead of going unseen. Solana and Tron addresses exist on their chain alone.
import { CHAIN_FACTS, type Chain } from '../chains/chains';
import type { ChainDeployment } from '../chains/chainRegistry';
import type { Network } from '../chains/tokenContracts';

/** The chains on which the address given for `selected` is watched: `selected` first. */
export function depositWatchChains(
  selected: Chain,
  network: Network,
  deployments: readonly Pick<ChainDeployment, 'chain' | 'network' | 'family' | 'tokens'>[],
): Chain[] {
  if (CHAIN_FACTS[selected].family !== 'evm') return [selected];
  const others = deployments.filter((d) => d.family === 'evm' && d.network === network && d.tokens.length > 0 && d.chain !== selected);
  return [selected, ...others.map((d) => d.chain)];
}
