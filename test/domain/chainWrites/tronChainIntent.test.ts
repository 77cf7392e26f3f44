// The Tron write verdicts (domain/chainWrites/tronChainIntent.ts) over the node's recorded answers (test/fixtures/tron/README.md).
import { describe, expect, it } from 'vitest';
import {
  classifyTronBroadcast,
  judgeTronAttempt,
  judgeTronExpiry,
  tronReferenceBlock,
  tronReferenceOf,
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
  energy: { total: 0n, fromResources: 0n, burnedSun: 0n },
  bandwidthBurnedSun: 345_000n,
  receiptResult: 'SUCCESS',
  failed: false,
  message: undefined,
  ...overrides,
});
const judge = (overrides: Partial<Parameters<typeof judgeTronAttempt>[0]>) =>
  judgeTronAttempt({ expiration, solidifiedHeadTimestamp: after, solidified: undefined, latest: undefined, ...overrides });

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

  it("suspects it dead only once the node's own solidified head is past the expiration without it, whatever the clock", () => {
    expect(judge({})).toEqual({ kind: 'expired-unseen' });
    // A node whose solidified head lags says so by that head: nothing is suspected.
    expect(judge({ solidifiedHeadTimestamp: before })).toEqual({ kind: 'unseen' });
    expect(judge({ solidifiedHeadTimestamp: expiration })).toEqual({ kind: 'unseen' });
    // The latest view can only hold it on a fork the solidified chain has left.
    expect(judge({ latest: info() })).toEqual({ kind: 'expired-unseen' });
  });
});

describe('judgeTronExpiry', () => {
  const id = (number: bigint, tag: string) => `${number.toString(16).padStart(16, '0')}${tag.repeat(48)}`;
  // The reference block 0x100 and the blocks after it, 3 s apart, the fourth the first at the expiration.
  const chain = (count: number, txIds: Record<number, string[]> = {}) =>
    Array.from({ length: count }, (_, i) => ({
      number: 0x100n + BigInt(i),
      blockId: id(0x100n + BigInt(i), 'a'),
      parentId: id(0xffn + BigInt(i), 'a'),
      timestamp: new Date(expiration.getTime() - 9_000 + i * 3_000),
      txIds: txIds[i] ?? [],
    }));
  const reference = { refBlockBytes: '0100', refBlockHash: 'a'.repeat(16) };
  const expiry = (blocks: ReturnType<typeof chain>, txIds = ['cc', 'dd']) => judgeTronExpiry({ txIds, expiration, reference, blocks });

  it('proves it dead when every block up to the first at the expiration is read unbroken without any of its txIDs', () => {
    expect(expiry(chain(4))).toEqual({ kind: 'dead' });
    expect(expiry(chain(6, { 4: ['cc'] }))).toEqual({ kind: 'dead' });
  });

  it('finds a txID, current or superseded, in a block the index did not know', () => {
    expect(expiry(chain(4, { 3: ['DD'] }))).toEqual({ kind: 'in-block', txId: 'dd', blockNumber: 0x103n });
    expect(expiry(chain(4, { 1: ['cc'] }))).toEqual({ kind: 'in-block', txId: 'cc', blockNumber: 0x101n });
  });

  it('proves nothing from a node whose blocks stop short, break, or miss the reference block', () => {
    expect(expiry(chain(3))).toMatchObject({ kind: 'unproven', reason: expect.stringMatching(/do not reach past the expiration/) });
    const [ref, , ...rest] = chain(5);
    expect(expiry([ref!, ...rest])).toMatchObject({ kind: 'unproven', reason: expect.stringMatching(/break after block 256/) });
    const forked = chain(4).map((block, i) => (i === 2 ? { ...block, parentId: id(0x101n, 'b') } : block));
    expect(expiry(forked)).toMatchObject({ kind: 'unproven' });
    expect(expiry(chain(4).slice(1))).toMatchObject({ kind: 'unproven', reason: expect.stringMatching(/reference block/) });
    expect(expiry([])).toMatchObject({ kind: 'unproven' });
  });
});

describe('tronReferenceOf', () => {
  it('reads the TAPOS fields of signed Transaction bytes', () => {
    // Transaction { raw_data { ref_block_bytes 0x1c2d, ref_block_hash 8 bytes, expiration 1700000000000 }, signature }
    const raw = Buffer.concat([
      Buffer.from('0a021c2d', 'hex'),
      Buffer.from('2208', 'hex'),
      Buffer.from('0102030405060708', 'hex'),
      Buffer.from('4080d0a5d4bc31', 'hex'),
    ]);
    const transaction = Buffer.concat([Buffer.from([0x0a, raw.length]), raw, Buffer.from('1202abcd', 'hex')]);
    expect(tronReferenceOf(transaction.toString('hex'))).toEqual({ refBlockBytes: '1c2d', refBlockHash: '0102030405060708' });
    expect(() => tronReferenceOf('1202abcd')).toThrow(/no TAPOS reference/);
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
