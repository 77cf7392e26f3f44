import { concat, getAddress, hexToBigInt, hexToNumber, isHex, numberToHex, pad, size, slice } from 'viem';
import type { Address, Hex } from 'viem';

/**
 * CCTP V2 message header, packed as circlefin/evm-cctp-contracts `src/messages/v2/MessageV2.sol` lays it out.
 * `nonce` and `finalityThresholdExecuted` are zero in the emitted message; the attestation service fills them.
 */
export interface MessageV2 {
  version: number;
  sourceDomain: number;
  destinationDomain: number;
  nonce: Hex;
  sender: Hex;
  recipient: Hex;
  destinationCaller: Hex;
  minFinalityThreshold: number;
  finalityThresholdExecuted: number;
  messageBody: Hex;
}

/** TokenMessengerV2's body (`src/messages/v2/BurnMessageV2.sol`); the first 132 bytes keep V1's BurnMessage layout. */
export interface BurnMessageV2 {
  version: number;
  burnToken: Hex;
  mintRecipient: Hex;
  amount: bigint;
  messageSender: Hex;
  maxFee: bigint;
  feeExecuted: bigint;
  expirationBlock: bigint;
  hookData: Hex;
}

export class CctpMessageFormatError extends Error {
  override name = 'CctpMessageFormatError';
}

const MESSAGE_BODY_INDEX = 148;
const HOOK_DATA_INDEX = 228;
const UINT32_MAX = 0xffff_ffff;
const UINT256_MAX = (1n << 256n) - 1n;

/** MessageTransmitterV2's `version`; V1 messages carry 0. */
export const MESSAGE_V2_VERSION = 1;

export const EMPTY_BYTES32: Hex = `0x${'00'.repeat(32)}`;

export function encodeMessageV2(message: MessageV2): Hex {
  return concat([
    uint32(message.version, 'version'),
    uint32(message.sourceDomain, 'sourceDomain'),
    uint32(message.destinationDomain, 'destinationDomain'),
    bytes32(message.nonce, 'nonce'),
    bytes32(message.sender, 'sender'),
    bytes32(message.recipient, 'recipient'),
    bytes32(message.destinationCaller, 'destinationCaller'),
    uint32(message.minFinalityThreshold, 'minFinalityThreshold'),
    uint32(message.finalityThresholdExecuted, 'finalityThresholdExecuted'),
    bytes(message.messageBody, 'messageBody'),
  ]);
}

export function decodeMessageV2(message: Hex): MessageV2 {
  const raw = bytes(message, 'message');
  if (size(raw) < MESSAGE_BODY_INDEX) {
    throw new CctpMessageFormatError(`a CCTP V2 message has at least ${MESSAGE_BODY_INDEX} bytes, this one ${size(raw)}`);
  }
  return {
    version: hexToNumber(slice(raw, 0, 4)),
    sourceDomain: hexToNumber(slice(raw, 4, 8)),
    destinationDomain: hexToNumber(slice(raw, 8, 12)),
    nonce: slice(raw, 12, 44),
    sender: slice(raw, 44, 76),
    recipient: slice(raw, 76, 108),
    destinationCaller: slice(raw, 108, 140),
    minFinalityThreshold: hexToNumber(slice(raw, 140, 144)),
    finalityThresholdExecuted: hexToNumber(slice(raw, 144, 148)),
    messageBody: tail(raw, MESSAGE_BODY_INDEX),
  };
}

export function encodeBurnMessageV2(body: BurnMessageV2): Hex {
  return concat([
    uint32(body.version, 'version'),
    bytes32(body.burnToken, 'burnToken'),
    bytes32(body.mintRecipient, 'mintRecipient'),
    uint256(body.amount, 'amount'),
    bytes32(body.messageSender, 'messageSender'),
    uint256(body.maxFee, 'maxFee'),
    uint256(body.feeExecuted, 'feeExecuted'),
    uint256(body.expirationBlock, 'expirationBlock'),
    bytes(body.hookData, 'hookData'),
  ]);
}

export function decodeBurnMessageV2(body: Hex): BurnMessageV2 {
  const raw = bytes(body, 'burn message');
  if (size(raw) < HOOK_DATA_INDEX) {
    throw new CctpMessageFormatError(`a CCTP V2 burn message has at least ${HOOK_DATA_INDEX} bytes, this one ${size(raw)}`);
  }
  return {
    version: hexToNumber(slice(raw, 0, 4)),
    burnToken: slice(raw, 4, 36),
    mintRecipient: slice(raw, 36, 68),
    amount: hexToBigInt(slice(raw, 68, 100)),
    messageSender: slice(raw, 100, 132),
    maxFee: hexToBigInt(slice(raw, 132, 164)),
    feeExecuted: hexToBigInt(slice(raw, 164, 196)),
    expirationBlock: hexToBigInt(slice(raw, 196, 228)),
    hookData: tail(raw, HOOK_DATA_INDEX),
  };
}

/** Left-pads an EVM address to the bytes32 form CCTP messages carry (AddressUtils.toBytes32). */
export function addressToBytes32(address: Address): Hex {
  return pad(getAddress(address), { size: 32 }).toLowerCase() as Hex;
}

/** The EVM address in a bytes32 word; refuses words whose upper 12 bytes are not zero (not an EVM address). */
export function bytes32ToAddress(word: Hex): Address {
  const raw = bytes32(word, 'address word');
  if (hexToBigInt(slice(raw, 0, 12)) !== 0n) throw new CctpMessageFormatError(`${word} is not a left-padded EVM address`);
  return getAddress(slice(raw, 12, 32));
}

// viem's slice throws on an empty tail, and an empty hook data or body is normal.
function tail(raw: Hex, from: number): Hex {
  return size(raw) === from ? '0x' : slice(raw, from);
}

function uint32(value: number, field: string): Hex {
  if (!Number.isInteger(value) || value < 0 || value > UINT32_MAX)
    throw new CctpMessageFormatError(`${field} must be a uint32, got ${value}`);
  return numberToHex(value, { size: 4 });
}

function uint256(value: bigint, field: string): Hex {
  if (value < 0n || value > UINT256_MAX) throw new CctpMessageFormatError(`${field} must be a uint256, got ${value}`);
  return numberToHex(value, { size: 32 });
}

function bytes32(value: Hex, field: string): Hex {
  const raw = bytes(value, field);
  if (size(raw) !== 32) throw new CctpMessageFormatError(`${field} must be 32 bytes, got ${size(raw)}`);
  return raw.toLowerCase() as Hex;
}

function bytes(value: Hex, field: string): Hex {
  if (!isHex(value, { strict: true }) || value.length % 2 !== 0) throw new CctpMessageFormatError(`${field} must be 0x-prefixed hex bytes`);
  return value.toLowerCase() as Hex;
}
