// What happens to an EVM deposit after the treasury has paid the merchant: the inventory path that carries the
// deposit's USDC back to the treasury (SETTLEMENT.md, "The model"). The demo walks these steps in order after the
// payout. A step the stack runs has `run`, which waits for it and says what landed (its transaction, the
// attestation, the treasury's balance); a step without one is not part of the stack yet, and the demo says so.
import type { Address } from 'viem';
import type { DevStack } from '../devStack';

export interface InventoryContext {
  stack: DevStack;
  sessionId: string;
  /** The session's forwarder deposit address on the local chain. */
  depositAddress: Address;
  say(line: string): void;
}

export interface InventoryStep {
  name: 'sweep' | 'burn' | 'attestation' | 'refill';
  /** What the stack does in this step, in words. */
  what: string;
  run?: (context: InventoryContext) => Promise<void>;
}

export const INVENTORY_PATH: readonly InventoryStep[] = [
  { name: 'sweep', what: "the relayer's sweepMany moves the deposit address's USDC to the collector (sweep_evm_base_usdc_test)" },
  { name: 'burn', what: "the collector burns its USDC through TokenMessengerV2 to Solana (domain 5), minting to the treasury's USDC account (transfer_<id>)" },
  { name: 'attestation', what: 'the loopback attestation stand-in (CCTP_ATTESTATION_URL) attests the burn' },
  { name: 'refill', what: "receive_message on the local Solana chain mints the burned USDC to the treasury" },
];

export async function followInventoryPath(context: InventoryContext, steps: readonly InventoryStep[] = INVENTORY_PATH): Promise<void> {
  for (const step of steps) {
    if (step.run) await step.run(context);
    else context.say(`${step.name}: not run by this stack yet: ${step.what}`);
  }
}
