// The Tron write verdicts (domain/chainWrites/tronChainIntent.ts) over the node's recorded answers (test/fixtures/tron/README.md).
import { describe, expect, it } from 'vitest';
import {
  classifyTronBroadcast,
  judgeTronAttempt,
  tronReferenceBlock,
  type TronTransactionInfo,
} from '../../../domain/chainWrites/tronChainIntent';
import { recorded } from '../../fixtures/tron';

const { nowBlock, broadcastSuccess, broadcastExpired, broadcastDup } = recorded.http;

const expiration = new Date('2026-01-01T00:01:00Z');
const after = new Date(expiration.getTime() + 3_000);
const before = new Date(expiration.getTime() - 3_000);
const info = (overrides: Partial<TronTransactionInfo> = {}): TronTransactionInfo => ({
  blockNumber: 100n,
  fee: 345_000n,
  receiptResult: 'SUCCESS',
  failed: false,
  message: undefined,
  ...overrides,
});
const judge = (overrides: Partial<Parameters<typeof judgeTronAttempt>[0]>) =>
  judgeTronAttempt({ expiration, now: after, solidifiedHeadTimestamp: after, solidified: undefined, latest: undefined, ...overrides });

describe('judgeTronAttempt', () => {
  it('is final once the solidified view has it, succeeded only on a SUCCESS receipt', () => {
    expect(judge({ solidified: info() })).toEqual({ kind: 'final', blockNumber: 100n, success: true, fee: 345_000n, outcome: 'SUCCESS' });
    expect(judge({ solidified: info({ receiptResult: 'REVERT', failed: true, message: 'REVERT opcode executed' }) })).toMatchObject({
      kind: 'final',
      success: false,
      outcome: 'REVERT',
      message: 'REVERT opcode executed',
    });
    expect(judge({ solidified: info({ receiptResult: 'OUT_OF_ENERGY', failed: true }) })).toMatchObject({
      kind: 'final',
      success: false,
      outcome: 'OUT_OF_ENERGY',
    });
    expect(judge({ solidified: info({ receiptResult: undefined, failed: true }) })).toMatchObject({
      kind: 'final',
      success: false,
      outcome: 'FAILED',
    });
  });

  it('waits on a block the solidified chain has not reached', () => {
    expect(judge({ solidifiedHeadTimestamp: before, latest: info() })).toEqual({ kind: 'landed', blockNumber: 100n, fee: 345_000n });
  });

  it('proves it dead only when it has expired and the solidified head is past the expiration without it', () => {
    expect(judge({})).toEqual({ kind: 'dead' });
    expect(judge({ solidifiedHeadTimestamp: before })).toEqual({ kind: 'unseen' });
    expect(judge({ solidifiedHeadTimestamp: expiration })).toEqual({ kind: 'unseen' });
    expect(judge({ now: before })).toEqual({ kind: 'unseen' });
    // The latest view can only hold it on a fork the solidified chain has left.
    expect(judge({ latest: info() })).toEqual({ kind: 'dead' });
  });
});

describe('classifyTronBroadcast', () => {
  it('takes the recorded success and a duplicate as accepted', () => {
    expect(classifyTronBroadcast(broadcastSuccess)).toEqual({ kind: 'accepted' });
    expect(classifyTronBroadcast(broadcastDup)).toEqual({ kind: 'accepted' });
  });

  it('takes an expired transaction or an unknown reference block as too late for this node', () => {
    expect(classifyTronBroadcast(broadcastExpired)).toEqual({ kind: 'too-late', code: 'TRANSACTION_EXPIRATION_ERROR' });
    expect(classifyTronBroadcast({ result: false, code: 'TAPOS_ERROR', message: 'Tapos check error' })).toEqual({
      kind: 'too-late',
      code: 'TAPOS_ERROR',
    });
  });

  it('tells a busy node from a refusal', () => {
    expect(classifyTronBroadcast({ code: 'SERVER_BUSY', message: 'Server busy' })).toMatchObject({ kind: 'busy' });
    expect(classifyTronBroadcast({ code: 'NOT_ENOUGH_EFFECTIVE_CONNECTION' })).toMatchObject({ kind: 'busy' });
    for (const code of ['SIGERROR', 'CONTRACT_VALIDATE_ERROR', 'BANDWITH_ERROR', 'TOO_BIG_TRANSACTION_ERROR', 'SOMETHING_NEW']) {
      expect(classifyTronBroadcast({ result: false, code, message: 'x' })).toMatchObject({ kind: 'refused', code });
    }
  });
});

describe('tronReferenceBlock', () => {
  it('takes bytes 6..8 of the height and 8..16 of the id, as TronWeb does, from the recorded Nile block', () => {
    const block = { blockId: nowBlock.blockID, number: BigInt(nowBlock.block_header.raw_data.number) };
    expect(tronReferenceBlock(block)).toEqual({ refBlockBytes: '266b', refBlockHash: 'f6b6d392f654dc2e' });
  });

  it('refuses a block id that does not start with its height', () => {
    expect(() => tronReferenceBlock({ blockId: nowBlock.blockID, number: 1n })).toThrow(/does not start with its height/);
  });
});
