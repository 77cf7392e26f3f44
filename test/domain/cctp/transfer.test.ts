import { keccak256, toHex, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { encodeBurnMessageV2, encodeMessageV2, EMPTY_BYTES32 } from '../../../domain/cctp/messageV2';
import {
  attestationExpired,
  creditedAmount,
  judgeTransferStart,
  readAttestedMessage,
  receiveIntentId,
  transferIdFor,
  TransferMessageError,
} from '../../../domain/cctp/transfer';

const recipient: Hex = `0x${'ab'.repeat(32)}`;
const nonce = keccak256(toHex('nonce'));

function attested(
  overrides: { amount?: bigint; feeExecuted?: bigint; mintRecipient?: Hex; sourceDomain?: number; expirationBlock?: bigint } = {},
): Hex {
  return encodeMessageV2({
    version: 1,
    sourceDomain: overrides.sourceDomain ?? 6,
    destinationDomain: 5,
    nonce,
    sender: EMPTY_BYTES32,
    recipient: `0x${'cd'.repeat(32)}`,
    destinationCaller: EMPTY_BYTES32,
    minFinalityThreshold: 2000,
    finalityThresholdExecuted: 2000,
    messageBody: encodeBurnMessageV2({
      version: 1,
      burnToken: `0x${'00'.repeat(12)}${'11'.repeat(20)}`,
      mintRecipient: overrides.mintRecipient ?? recipient,
      amount: overrides.amount ?? 10_000_000n,
      messageSender: EMPTY_BYTES32,
      maxFee: 1_000n,
      feeExecuted: overrides.feeExecuted ?? 1_000n,
      expirationBlock: overrides.expirationBlock ?? 500n,
      hookData: '0x',
    }),
  });
}
const expected = { sourceDomain: 6, amount: 10_000_000n, maxFee: 1_000n, mintRecipient: recipient };

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

  it('reads the credited amount from the attested message, and refuses another burn’s message', () => {
    expect(readAttestedMessage(attested(), expected)).toEqual({ nonce, credited: 9_999_000n, expirationBlock: 500n });
    for (const wrong of [{ amount: 9n }, { feeExecuted: 1_001n }, { mintRecipient: EMPTY_BYTES32 }, { sourceDomain: 0 }]) {
      expect(
        () => readAttestedMessage(attested(wrong), expected),
        JSON.stringify(wrong, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
      ).toThrow(TransferMessageError);
    }
  });

  it('counts an attestation expired from its expirationBlock on, never when it is 0', () => {
    expect(attestationExpired(500n, 499n)).toBe(false);
    expect(attestationExpired(500n, 500n)).toBe(true);
    expect(attestationExpired(0n, 10n ** 9n)).toBe(false);
  });

  it('trusts a landed receive’s balance delta only when it is what the message mints', () => {
    const read = readAttestedMessage(attested(), expected);
    expect(creditedAmount(read, undefined)).toBe(9_999_000n);
    expect(creditedAmount(read, 9_999_000n)).toBe(9_999_000n);
    expect(() => creditedAmount(read, 9_000_000n)).toThrow(TransferMessageError);
  });
});
