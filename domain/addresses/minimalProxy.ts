/**
 * EIP-1167 minimal proxy: the smallest contract that delegates every call to one implementation. A deposit
 * forwarder is such a clone, so its CREATE2 address depends only on (factory, salt, implementation).
 */
import { concatHex, getAddress, type Hex } from 'viem';
import type { EvmAddress } from './evm';

/** The creation code OpenZeppelin's `Clones.cloneDeterministic` deploys (EIP-1167's runtime behind a 10-byte constructor). */
export function minimalProxyInitCode(implementation: EvmAddress): Hex {
  return concatHex([
    '0x3d602d80600a3d3981f3363d3d373d3d3d363d73',
    getAddress(implementation).toLowerCase() as Hex,
    '0x5af43d82803e903d91602b57fd5bf3',
  ]);
}
