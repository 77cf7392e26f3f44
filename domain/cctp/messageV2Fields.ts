// The fields of a CCTP V2 message and its BurnMessageV2 body that the Solana receive needs, read at the offsets of
// circlefin/solana-cctp-contracts `programs/v2/message-transmitter-v2/src/message.rs` and
// `token-messenger-minter-v2/src/token_messenger_v2/burn_message.rs` (SETTLEMENT.md "Circle CCTP V2"). A reader
// only: the full MessageV2/BurnMessageV2 codec is the EVM side's (domain/cctp/ of branch cctpevm), and this file
// goes once that one lands.

const MESSAGE_HEADER_LENGTH = 148;
const BURN_MESSAGE_HOOK_DATA_OFFSET = 228;

export interface MessageV2Fields {
  version: number;
  sourceDomain: number;
  destinationDomain: number;
  /** 32 bytes: the used_nonce account's seed. */
  nonce: Uint8Array;
  sender: Uint8Array;
  recipient: Uint8Array;
  destinationCaller: Uint8Array;
  minFinalityThreshold: number;
  finalityThresholdExecuted: number;
  body: Uint8Array;
}

export interface BurnMessageV2Fields {
  version: number;
  burnToken: Uint8Array;
  mintRecipient: Uint8Array;
  amount: bigint;
  messageSender: Uint8Array;
  maxFee: bigint;
  feeExecuted: bigint;
  expirationBlock: bigint;
  hookData: Uint8Array;
}

function u32(bytes: Uint8Array, offset: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(offset, false);
}

function u256(bytes: Uint8Array, offset: number): bigint {
  let value = 0n;
  for (const byte of bytes.subarray(offset, offset + 32)) value = (value << 8n) | BigInt(byte);
  return value;
}

export function readMessageV2(message: Uint8Array): MessageV2Fields {
  if (message.length < MESSAGE_HEADER_LENGTH) throw new Error(`a CCTP V2 message is at least ${MESSAGE_HEADER_LENGTH} bytes, got ${message.length}`);
  return {
    version: u32(message, 0),
    sourceDomain: u32(message, 4),
    destinationDomain: u32(message, 8),
    nonce: message.slice(12, 44),
    sender: message.slice(44, 76),
    recipient: message.slice(76, 108),
    destinationCaller: message.slice(108, 140),
    minFinalityThreshold: u32(message, 140),
    finalityThresholdExecuted: u32(message, 144),
    body: message.slice(MESSAGE_HEADER_LENGTH),
  };
}

export function readBurnMessageV2(body: Uint8Array): BurnMessageV2Fields {
  if (body.length < BURN_MESSAGE_HOOK_DATA_OFFSET) throw new Error(`a BurnMessageV2 body is at least ${BURN_MESSAGE_HOOK_DATA_OFFSET} bytes, got ${body.length}`);
  return {
    version: u32(body, 0),
    burnToken: body.slice(4, 36),
    mintRecipient: body.slice(36, 68),
    amount: u256(body, 68),
    messageSender: body.slice(100, 132),
    maxFee: u256(body, 132),
    feeExecuted: u256(body, 164),
    expirationBlock: u256(body, 196),
    hookData: body.slice(BURN_MESSAGE_HOOK_DATA_OFFSET),
  };
}
