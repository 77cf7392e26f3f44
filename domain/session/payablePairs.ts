// Which token/chain pairs a session can actually be paid in: those the key's network (mainnet for live keys,
// the test network for test keys) has a contract for in this deployment's chain registry. The one rule
// behind supported_tokens (at creation, in GET /checkout/sessions/{id}, on the hosted page) and behind
// select-payment's check, so a pair is never offered and then refused.
import type { ChainRegistry } from '../chains/chainRegistry';
import { CHAINS, TOKENS, type TokenChainPairs } from '../chains/chains';
import type { Mode } from '../wire/session';
import type { Network } from '../chains/tokenContracts';

export const networkForMode = (mode: Mode): Network => (mode === 'live' ? 'mainnet' : 'testnet');

/** The pairs of `offered` (the merchant's choice) that `mode`'s network can take, in TOKENS and CHAINS order. */
export function payablePairs(registry: ChainRegistry, mode: Mode, offered: TokenChainPairs): TokenChainPairs {
  const network = networkForMode(mode);
  const payable: TokenChainPairs = {};
  for (const token of TOKENS) {
    const chains = CHAINS.filter((chain) => offered[token]?.includes(chain) && registry.token(chain, network, token) !== undefined);
    if (chains.length > 0) payable[token] = chains;
  }
  return payable;
}
