/**
 * Whether a configured Tron DepositFactory puts clones where the service says: asked for `addressOf` of a probe salt,
 * it must answer the address `tronForwarderAddress` computes offline. The EVM build of the factory predicts with
 * EIP-1014's 0xff, which the TVM does not use, so it answers another address, and every sweep through it reverts
 * while the addresses handed out keep their funds (docs/settlement.md#tron-forwarder-sweeps).
 */
import { keccak256, stringToHex, type Hex } from 'viem';
import { tronForwarderAddress, type TronForwarderContracts } from './depositForwarder';

/** No session's salt (those hash "checkout-deposit:v1:" and a session id): asking for it deploys and moves nothing. */
export const TRON_FACTORY_PROBE_SALT: Hex = keccak256(stringToHex('checkout-deposit:factory-probe'));

/** Undefined when the factory's answer (`T…`) is the offline address; otherwise what is wrong, for an operator. */
export function tronFactoryProbeMismatch(contracts: TronForwarderContracts, answered: string): string | undefined {
  const expected = tronForwarderAddress(contracts, TRON_FACTORY_PROBE_SALT);
  if (answered === expected) return undefined;
  return (
    `the factory ${contracts.factory} answers addressOf(${TRON_FACTORY_PROBE_SALT}) = ${answered}, where the service computes ` +
    `${expected} from it and the implementation ${contracts.implementation} with the TVM's CREATE2 (0x41): it is not the TVM ` +
    `build of DepositFactory (contracts/artifacts/tvm/) over that implementation, and every sweep through it would revert`
  );
}
