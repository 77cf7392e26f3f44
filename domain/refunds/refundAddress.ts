// Whether an address can receive a refund on a chain (docs/refunds.md#where-a-refund-can-go): the API checks a claim
// with it, the claim page checks as the customer types, and the messages are written for the customer. An owner
// address only: money sent to a Solana token account (or any program-derived address) is out of the customer's
// reach unless their wallet happens to own it, so those are refused. Pure; no Node built-ins, as the page bundles it.
import { ed25519 } from '@noble/curves/ed25519.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { isSolanaAddress } from '../addresses/solana';
import { isTronAddress } from '../addresses/tron';
import { CHAIN_FACTS, type Chain } from '../chains/chains';
import { REFUND_ROUTES, isRefundRoute, type RefundRoute } from './refundDestinations';

export type RefundAddressCheck = { ok: true; address: string } | { ok: false; message: string };

const EVM_HEX = /^0x[0-9a-fA-F]{40}$/;
const EVM_ZERO = `0x${'0'.repeat(40)}`;

/** EIP-55: each letter upper-case where the keccak256 of the lower-case hex has a nibble ≥ 8. */
export function eip55(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) out += parseInt(hash[i] as string, 16) >= 8 ? (hex[i] as string).toUpperCase() : hex[i];
  return out;
}

function checkEvm(address: string): RefundAddressCheck {
  if (!EVM_HEX.test(address)) return { ok: false, message: 'An address on this network is 0x followed by 40 hexadecimal characters' };
  const checksummed = eip55(address);
  // All-lowercase carries no checksum; mixed (or all-upper) case does, and one mistyped character breaks it.
  if (address !== address.toLowerCase() && address !== checksummed)
    return { ok: false, message: 'This address has a typo: its capital letters do not match its checksum' };
  if (checksummed === EVM_ZERO) return { ok: false, message: 'That is the zero address; money sent there is lost' };
  return { ok: true, address: checksummed };
}

function checkSolana(address: string): RefundAddressCheck {
  if (!isSolanaAddress(address)) return { ok: false, message: 'A Solana address is 32 to 44 base58 characters' };
  try {
    ed25519.Point.fromBytes(base58.decode(address));
  } catch {
    // Off the curve: no private key exists for it, so it is a program-derived address such as a token account.
    return { ok: false, message: 'That is a token account, give your wallet address' };
  }
  return { ok: true, address };
}

function checkTron(address: string): RefundAddressCheck {
  return isTronAddress(address) ? { ok: true, address } : { ok: false, message: 'A Tron address starts with T and has 34 characters' };
}

/** The address's canonical form (EIP-55 for EVM chains), or why it cannot receive money on `chain`. */
export function checkRefundAddress(chain: Chain, address: string): RefundAddressCheck {
  const trimmed = address.trim();
  if (trimmed === '') return { ok: false, message: 'Enter the address of your wallet' };
  switch (CHAIN_FACTS[chain].family) {
    case 'evm':
      return checkEvm(trimmed);
    case 'solana':
      return checkSolana(trimmed);
    case 'tron':
      return checkTron(trimmed);
  }
}

/** As checkRefundAddress, and the route must be one the service pays refunds on. */
export function checkRefundDestination(destination: RefundRoute & { address: string }): RefundAddressCheck {
  if (!isRefundRoute(destination)) {
    const routes = REFUND_ROUTES.map((r) => `${r.token} on ${r.chain}`).join(', ');
    return { ok: false, message: `Refunds are paid only as ${routes}` };
  }
  return checkRefundAddress(destination.chain, destination.address);
}
