import type { Chain } from '../chains/chains';
import type { CctpSpeed } from './finality';
import type { Hex } from 'viem';

/** Circle's CCTP domain ids (cctp/concepts/supported-chains-and-domains); bsc and tron have no USDC route. */
export const CCTP_SOURCE_DOMAINS = {
  ethereum: 0,
  optimism: 2,
  arbitrum: 3,
  base: 6,
  polygon: 7,
} as const satisfies Partial<Record<Chain, number>>;

export type CctpSourceChain = keyof typeof CCTP_SOURCE_DOMAINS;

export const SOLANA_CCTP_DOMAIN = 5;

/** Polygon PoS attests at its ~33-block finality only; the others offer Fast transfers as a source. */
export const CCTP_FAST_SOURCE: Record<CctpSourceChain, boolean> = {
  ethereum: true,
  optimism: true,
  arbitrum: true,
  base: true,
  polygon: false,
};

/** Same address on all five mainnets (and another shared one on their testnets). */
export const TOKEN_MESSENGER_V2: { mainnet: Hex; testnet: Hex } = {
  mainnet: '0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d',
  testnet: '0x8FE6B999Dc680CcFDD5Bf7EB0974218be2542DAA',
};

export const MESSAGE_TRANSMITTER_V2: { mainnet: Hex; testnet: Hex } = {
  mainnet: '0x81D40F21F12A8F0E3252Bccb954D722d4c464B64',
  testnet: '0xE737e5cEBEEBa77EFE34D4aa090756590b1CE275',
};

export function isCctpSourceChain(chain: Chain): chain is CctpSourceChain {
  return Object.hasOwn(CCTP_SOURCE_DOMAINS, chain);
}

/** Standard unless Fast is both configured and offered by the source chain (never on polygon). */
export function cctpSpeedFor(chain: CctpSourceChain, fastConfigured: boolean): CctpSpeed {
  return fastConfigured && CCTP_FAST_SOURCE[chain] ? 'fast' : 'standard';
}
