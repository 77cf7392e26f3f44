import { describe, expect, it } from 'vitest';
import { chooseSolanaDepositAddress } from '../../../domain/addresses/solanaDepositAddressChoice';

const session = { sessionId: 'cs_1', index: 7 };
const RECORDED = 'RecordedBySigner1111111111111111111111111111';
const ROGUE = 'AnsweredByRoguePoller111111111111111111111111';

describe('chooseSolanaDepositAddress', () => {
  it('shows the stored address, else the one the signer recorded for the index, whatever was answered', () => {
    expect(chooseSolanaDepositAddress({ ...session, stored: RECORDED, pooled: null, answered: ROGUE })).toEqual({ address: RECORDED });
    expect(chooseSolanaDepositAddress({ ...session, stored: null, pooled: RECORDED })).toEqual({ address: RECORDED });
    expect(chooseSolanaDepositAddress({ ...session, stored: null, pooled: RECORDED, answered: RECORDED })).toEqual({ address: RECORDED });
  });

  it('names an answer that differs from what the signer recorded, and shows the recorded one', () => {
    expect(chooseSolanaDepositAddress({ ...session, stored: null, pooled: RECORDED, answered: ROGUE })).toEqual({
      address: RECORDED,
      unrecordedAnswer: ROGUE,
    });
  });

  it('asks the signer while nothing is recorded, and refuses an answer that left nothing recorded', () => {
    expect(chooseSolanaDepositAddress({ ...session, stored: null, pooled: null })).toEqual({ needed: true });
    expect(chooseSolanaDepositAddress({ ...session, stored: null, pooled: null, answered: ROGUE })).toEqual({
      refused: `session cs_1: the answer "${ROGUE}" to the Solana address of index 7 is not what the signer recorded for it (nothing is); not shown`,
    });
  });
});
