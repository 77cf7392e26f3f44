import { keccak256, toHex, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  addressToBytes32,
  decodeBurnMessageV2,
  decodeMessageV2,
  encodeBurnMessageV2,
  encodeMessageV2,
  EMPTY_BYTES32,
  type BurnMessageV2,
  type MessageV2,
} from '../../../domain/cctp/messageV2';
import {
  AttestedFieldError,
  attestationExpired,
  creditedAmount,
  judgeTransferStart,
  readAttestedMessage,
  receiveIntentId,
  transferIdFor,
  TransferMessageError,
  type AttestedField,
  type ExpectedBurn,
} from '../../../domain/cctp/transfer';
import { circleMessage } from './messageVectors';

const recipient: Hex = `0x${'ab'.repeat(32)}`;
const nonce = keccak256(toHex('LocalNonce'));

// Circle's integration-test message (messageVectors.ts) as our burn on ethereum would have it attested: to Solana
// (domain 5) with destinationCaller 0 and the treasury's USDC account as mint recipient; token, depositor, 50,000
// USDC, maxFee, fee and the Fast threshold are Circle's.
const circle = decodeMessageV2(circleMessage);
const circleBody = decodeBurnMessageV2(circle.messageBody);
function attested(header: Partial<MessageV2> = {}, body: Partial<BurnMessageV2> = {}): Hex {
  return encodeMessageV2({
    ...circle,
    destinationDomain: 5,
    destinationCaller: EMPTY_BYTES32,
    ...header,
    messageBody: encodeBurnMessageV2({ ...circleBody, mintRecipient: recipient, expirationBlock: 500n, ...body }),
  });
}
const expected: ExpectedBurn = {
  sourceDomain: 0,
  burnToken: '0x24FA1F38FfE8bE6711872c6e0D662D83E524f0cE',
  messageSender: '0xBcd4042DE499D14e55001CcbB24a551F3b954096',
  mintRecipient: recipient,
  amount: 50_000_000_000n,
  maxFee: 50_000_000n,
  speed: 'fast',
};
const other = addressToBytes32('0x90F79bf6EB2c4f870365E785982E1f101E93b906');

describe('a CCTP transfer’s decisions', () => {
  it('starts a transfer of the whole balance at the minimum, none below it', () => {
    const base = { chain: 'base', minimum: 100n } as const;
    expect(judgeTransferStart({ ...base, collectorBalance: 100n })).toEqual({ start: true, amount: 100n });
    expect(judgeTransferStart({ ...base, collectorBalance: 99n })).toMatchObject({ start: false });
    expect(judgeTransferStart({ ...base, minimum: 0n, collectorBalance: 0n })).toMatchObject({ start: false });
  });

  it('names a run’s transfer the same on every retry, and a nonce’s receive in one case', () => {
    expect(transferIdFor('transfer_usdc_base_test-2026')).toBe(transferIdFor('transfer_usdc_base_test-2026'));
    expect(transferIdFor('a')).not.toBe(transferIdFor('b'));
    expect(transferIdFor('a')).toMatch(/^tr_[0-9a-f]{26}$/);
    expect(receiveIntentId('0xABCD')).toBe('recv:0xabcd');
  });

  it('reads the credited amount from the attested message when every field is this transfer’s burn', () => {
    expect(readAttestedMessage(attested(), expected)).toEqual({ nonce, credited: 49_950_000_000n, expirationBlock: 500n });
    expect(readAttestedMessage(attested({}, { feeExecuted: 0n }), expected).credited).toBe(50_000_000_000n);
  });

  it('refuses Circle’s message as emitted: it goes to domain 1, not Solana', () => {
    expect(() => readAttestedMessage(circleMessage, { ...expected, mintRecipient: circleBody.mintRecipient })).toThrow(
      expect.objectContaining({ field: 'destinationDomain' }),
    );
  });

  const wrongs: [AttestedField, Hex, Partial<ExpectedBurn>?][] = [
    ['sourceDomain', attested({ sourceDomain: 6 })],
    ['destinationDomain', attested({ destinationDomain: 1 })],
    ['destinationCaller', attested({ destinationCaller: other })],
    ['minFinalityThreshold', attested({ minFinalityThreshold: 2000 })],
    ['burnToken', attested({}, { burnToken: other })],
    ['messageSender', attested({}, { messageSender: other })],
    ['mintRecipient', attested({}, { mintRecipient: `0x${'cd'.repeat(32)}` })],
    ['amount', attested({}, { amount: 50_000_000_001n })],
    ['maxFee', attested({}, { maxFee: 50_000_001n })],
    ['feeExecuted', attested({}, { feeExecuted: 50_000_001n })],
    ['maxFee', attested(), { maxFee: 49_999_999n }],
    ['minFinalityThreshold', attested(), { speed: 'standard' }],
    ['burnToken', attested(), { burnToken: '0x90F79bf6EB2c4f870365E785982E1f101E93b906' }],
  ];
  it.each(wrongs)('refuses a message whose %s is not the burn’s', (field, message, expectation = {}) => {
    const refusal = (() => {
      try {
        readAttestedMessage(message, { ...expected, ...expectation });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(AttestedFieldError);
    expect(refusal).toBeInstanceOf(TransferMessageError);
    expect(refusal).toMatchObject({ field, message: expect.stringContaining(`the attested message's ${field} `) as unknown });
  });

  it('counts an attestation expired from its expirationBlock on, never when it is 0', () => {
    expect(attestationExpired(500n, 499n)).toBe(false);
    expect(attestationExpired(500n, 500n)).toBe(true);
    expect(attestationExpired(0n, 10n ** 9n)).toBe(false);
  });

  it('trusts a landed receive’s balance delta only when it is what the message mints', () => {
    const read = readAttestedMessage(attested(), expected);
    expect(creditedAmount(read, undefined)).toBe(49_950_000_000n);
    expect(creditedAmount(read, 49_950_000_000n)).toBe(49_950_000_000n);
    expect(() => creditedAmount(read, 49_000_000_000n)).toThrow(TransferMessageError);
  });
});
