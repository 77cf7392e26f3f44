// Held inventory (docs/settlement.md#held-inventory): the exposure caps per held pair (INVENTORY_CAPS) and, per held
// chain and mode, the address `checkout-admin inventory withdraw` sends held tokens to
// (INVENTORY_REBALANCE_ADDRESS_<CHAIN>_<MODE>: an exchange's deposit address, say, where they are turned into USDC
// for the treasury). Read once at start with the rest of the configuration; docs/configuration.md lists them.
import { isEvmAddress, toChecksumEvmAddress } from '../domain/addresses/evm';
import { isSolanaAddress } from '../domain/addresses/solana';
import { isTronAddress } from '../domain/addresses/tron';
import { HELD_INVENTORY_CHAINS, parseInventoryCaps, type HeldInventoryChain, type InventoryCaps } from '../domain/inventory/inventoryCaps';
import type { Mode } from '../domain/wire/session';

const MODES: readonly Mode[] = ['test', 'live'];

export interface InventoryConfig {
  caps: InventoryCaps;
  rebalanceAddresses: Record<Mode, Partial<Record<HeldInventoryChain, string>>>;
}

export const rebalanceAddressVariable = (chain: HeldInventoryChain, mode: Mode): string =>
  `INVENTORY_REBALANCE_ADDRESS_${chain.toUpperCase()}_${mode.toUpperCase()}`;

const ADDRESS_CHECKS: Record<HeldInventoryChain, { valid: (text: string) => boolean; kind: string; canonical: (text: string) => string }> =
  {
    bsc: { valid: isEvmAddress, kind: 'an EVM address (EIP-55 checksum or all lowercase)', canonical: toChecksumEvmAddress },
    tron: { valid: isTronAddress, kind: 'a Tron address (base58check T…)', canonical: (text) => text },
    solana: { valid: isSolanaAddress, kind: 'a Solana address (base58)', canonical: (text) => text },
  };

/** The configuration, or what is wrong with it (each issue names its variable). */
export function inventoryConfigFromEnv(env: NodeJS.ProcessEnv): { config?: InventoryConfig; issues: string[] } {
  const issues: string[] = [];
  let caps: InventoryCaps = new Map();
  try {
    caps = parseInventoryCaps(env.INVENTORY_CAPS ?? '');
  } catch (error) {
    issues.push(`INVENTORY_CAPS: ${(error as Error).message}`);
  }
  const rebalanceAddresses: InventoryConfig['rebalanceAddresses'] = { test: {}, live: {} };
  for (const mode of MODES) {
    for (const chain of HELD_INVENTORY_CHAINS) {
      const name = rebalanceAddressVariable(chain, mode);
      const value = env[name]?.trim();
      if (!value) continue;
      const check = ADDRESS_CHECKS[chain];
      if (check.valid(value)) rebalanceAddresses[mode][chain] = check.canonical(value);
      else issues.push(`${name}: is not ${check.kind}`);
    }
  }
  return issues.length > 0 ? { issues } : { issues, config: { caps, rebalanceAddresses } };
}
