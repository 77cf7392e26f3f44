/**
 * The CREATE2 salt of a session's deposit forwarder. It derives from the session id alone, so the address is known
 * the moment the session exists, needs no key, and the sweeper finds the salt again from the same id. The version
 * tag lets a later scheme change the salts without colliding with these.
 */
import { keccak256, stringToHex, type Hex } from 'viem';

const DEPOSIT_SALT_PREFIX = 'checkout-deposit:v1:';

/** keccak256(utf8("checkout-deposit:v1:" + sessionId)) as bytes32. */
export function depositSalt(sessionId: string): Hex {
  return keccak256(stringToHex(`${DEPOSIT_SALT_PREFIX}${sessionId}`));
}
