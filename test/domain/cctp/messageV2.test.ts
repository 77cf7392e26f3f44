import { keccak256, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  CctpMessageFormatError,
  addressToBytes32,
  bytes32ToAddress,
  decodeBurnMessageV2,
  decodeMessageV2,
  encodeBurnMessageV2,
  encodeMessageV2,
} from '../../../domain/cctp/messageV2';
import { circleMessage } from './messageVectors';

describe('MessageV2 and BurnMessageV2 against Circle’s integration-test message', () => {
  it('decodes every header field at the offsets of MessageV2.sol', () => {
    const message = decodeMessageV2(circleMessage);
    expect(message).toMatchObject({
      version: 1,
      sourceDomain: 0,
      destinationDomain: 1,
      nonce: keccak256(toHex('LocalNonce')),
      sender: addressToBytes32('0x93c7a6d00849c44ef3e92e95dceffccd447909ae'),
      recipient: addressToBytes32('0xca8b49076d1a8039599e24979abf819af784c27a'),
      destinationCaller: addressToBytes32('0x90F79bf6EB2c4f870365E785982E1f101E93b906'),
      minFinalityThreshold: 1000,
      finalityThresholdExecuted: 1000,
    });
  });

  it('decodes the burn body: token, recipient, 50,000 USDC, depositor, fees, no expiration, no hook', () => {
    const body = decodeBurnMessageV2(decodeMessageV2(circleMessage).messageBody);
    expect(body).toEqual({
      version: 1,
      burnToken: addressToBytes32('0x24FA1F38FfE8bE6711872c6e0D662D83E524f0cE'),
      mintRecipient: addressToBytes32('0x90F79bf6EB2c4f870365E785982E1f101E93b906'),
      amount: 50_000_000_000n,
      messageSender: addressToBytes32('0xBcd4042DE499D14e55001CcbB24a551F3b954096'),
      maxFee: 50_000_000n,
      feeExecuted: 50_000_000n,
      expirationBlock: 0n,
      hookData: '0x',
    });
    expect(bytes32ToAddress(body.messageSender)).toBe('0xBcd4042DE499D14e55001CcbB24a551F3b954096');
  });

  it('re-encodes the decoded fields to the same bytes', () => {
    const message = decodeMessageV2(circleMessage);
    const body = decodeBurnMessageV2(message.messageBody);
    expect(encodeMessageV2({ ...message, messageBody: encodeBurnMessageV2(body) })).toBe(circleMessage.toLowerCase());
  });

  it('keeps a hook data tail and an empty body', () => {
    const body = { ...decodeBurnMessageV2(decodeMessageV2(circleMessage).messageBody), hookData: '0xdeadbeef' as const };
    expect(decodeBurnMessageV2(encodeBurnMessageV2(body)).hookData).toBe('0xdeadbeef');
    const header = { ...decodeMessageV2(circleMessage), messageBody: '0x' as const };
    expect(decodeMessageV2(encodeMessageV2(header)).messageBody).toBe('0x');
  });

  it('refuses truncated messages and malformed fields', () => {
    expect(() => decodeMessageV2(`0x${'00'.repeat(147)}`)).toThrow(CctpMessageFormatError);
    expect(() => decodeBurnMessageV2(`0x${'00'.repeat(227)}`)).toThrow(CctpMessageFormatError);
    expect(() => decodeMessageV2('0x123')).toThrow(CctpMessageFormatError);
    const header = decodeMessageV2(circleMessage);
    expect(() => encodeMessageV2({ ...header, nonce: '0x01' })).toThrow(/nonce must be 32 bytes/);
    expect(() => encodeMessageV2({ ...header, version: 2 ** 32 })).toThrow(/uint32/);
    expect(() => bytes32ToAddress(`0x${'11'.repeat(32)}`)).toThrow(CctpMessageFormatError);
  });
});
