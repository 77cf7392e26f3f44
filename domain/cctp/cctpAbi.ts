import { parseAbi } from 'viem';
import type { Hex } from 'viem';

/**
 * The parts of TokenMessengerV2's and MessageTransmitterV2's ABIs this service calls or reads, as Circle publishes
 * them (circlefin/evm-cctp-contracts docs/abis/cctp/v2.1, V2.1 adds getMinFeeAmount); a test compares them entry by entry.
 */
export const tokenMessengerV2Abi = parseAbi([
  'function depositForBurn(uint256 amount, uint32 destinationDomain, bytes32 mintRecipient, address burnToken, bytes32 destinationCaller, uint256 maxFee, uint32 minFinalityThreshold)',
  'function getMinFeeAmount(uint256 amount) view returns (uint256)',
  'function localMessageTransmitter() view returns (address)',
  'event DepositForBurn(address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller, uint256 maxFee, uint32 indexed minFinalityThreshold, bytes hookData)',
]);

export const messageTransmitterV2Abi = parseAbi(['event MessageSent(bytes message)']);

/** Emitted by MessageTransmitterV2, not by TokenMessengerV2: filter by the transmitter's address. */
export const MESSAGE_SENT_TOPIC: Hex = '0x8c5261668696ce22758910d05bab8f186d6eb247ceac2af2e82c7dc17669b036';
export const DEPOSIT_FOR_BURN_TOPIC: Hex = '0x0c8c1cbdc5190613ebd485511d4e2812cfa45eecb79d845893331fedad5130a5';

export const DEPOSIT_FOR_BURN_SELECTOR: Hex = '0x8e0250ee';
