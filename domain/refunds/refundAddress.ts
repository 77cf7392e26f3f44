// Whether a refund may be sent where it is asked to go (docs/refunds.md#where-a-refund-can-go): a route the service pays
// on, and an address only an owner's key controls on that chain, spelled canonically. Parsing is not enough: a Solana
// token account or program-derived address decodes like a wallet, but the treasury's transfer goes to the associated
// token account of the address given, and one of an address no key signs for strands the money. Pure; whether the
// address is one of the service's own deposit addresses is asked of the database with the canonical spelling returned.
import { ed25519 } from '@noble/curves/ed25519.js';
import { getAddressEncoder, isAddress as isSolanaAddress } from '@solana/kit';
import { getAddress, isAddress as isEvmAddress, zeroAddress } from 'viem';
import { isTronAddress } from '../addresses/tron';
import { CHAIN_FACTS, type Chain } from '../chains/chains';
import type { RefundDestination } from '../wire/refund';
import { isRefundRoute, REFUND_ROUTES } from './refundDestinations';

export type RefundAddressVerdict = { ok: true; destination: RefundDestination } | { ok: false; message: string };

const SOLANA_SYSTEM_PROGRAM = '11111111111111111111111111111111';

/** An ed25519 point: a key pair can own it. Program-derived addresses (every associated token account) are off the curve. */
function isOnCurve(address: string): boolean {
  try {
    ed25519.Point.fromBytes(
      new Uint8Array(getAddressEncoder().encode(address as Parameters<ReturnType<typeof getAddressEncoder>['encode']>[0])),
    );
    return true;
  } catch {
    return false;
  }
}

/** The owner address `address` on `chain`, canonically spelled, whether or not a refund can be paid there. */
export function validateOwnerAddress(chain: Chain, address: string): { ok: true; address: string } | { ok: false; problem: string } {
  const problem = (text: string) => ({ ok: false as const, problem: text });
  switch (CHAIN_FACTS[chain].family) {
    case 'evm':
      // Strict: a mixed-case address must carry a correct EIP-55 checksum, so one mistyped character is caught.
      if (!isEvmAddress(address, { strict: true })) return problem(`is not an ${chain} address, or its EIP-55 checksum does not match`);
      if (address.toLowerCase() === zeroAddress) return problem('is the zero address, which nobody owns');
      return { ok: true, address: getAddress(address) };
    case 'solana':
      if (!isSolanaAddress(address)) return problem('is not a Solana address (32 bytes of base58)');
      if (address === SOLANA_SYSTEM_PROGRAM) return problem('is the System Program, which nobody owns');
      if (!isOnCurve(address)) {
        return problem('is off the ed25519 curve: a token account or program address, not a wallet; give the wallet (owner) address');
      }
      return { ok: true, address };
    case 'tron':
      if (!isTronAddress(address)) return problem('is not a Tron address (base58check T…) or its checksum does not match');
      return { ok: true, address };
  }
}

export function validateRefundAddress(destination: RefundDestination): RefundAddressVerdict {
  if (!isRefundRoute(destination)) {
    const routes = REFUND_ROUTES.map((r) => `${r.token} on ${r.chain}`).join(', ');
    return { ok: false, message: `destination: refunds are paid only as ${routes}, not ${destination.token} on ${destination.chain}` };
  }
  const owner = validateOwnerAddress(destination.chain, destination.address);
  if (!owner.ok) return { ok: false, message: `destination.address ${JSON.stringify(destination.address)} ${owner.problem}` };
  return { ok: true, destination: { ...destination, address: owner.address } };
}
