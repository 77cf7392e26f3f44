// A payout is backed only by the indexer's confirmed deposits to the session's own address, on its network, in its
// token, at full depth, adding up (in USDC's 6 decimals) to at least the payout; above a threshold the chain itself
// must show the same amount at that depth, or, while its node trails the indexer's, be waited on for a bounded time.
import { describe, expect, it } from 'vitest';
import {
  judgeChainReading,
  judgeDepositBacking,
  liveRereadGaps,
  needsChainReread,
  REREAD_WAIT_MS,
  rereadRpcUrl,
  type BackingTerms,
  type DepositFact,
} from '../../../domain/settlement/depositBacking';

const ADDRESS = '0xAbCdEf0000000000000000000000000000000001';
const terms: BackingTerms = {
  paymentId: 'pay_1',
  chain: 'base',
  network: 'testnet',
  token: 'USDC',
  decimals: 6,
  depositAddress: ADDRESS,
  requiredConfirmations: 64,
  payoutUsdcBaseUnits: 10_000_000n,
};
const fact = (overrides: Partial<DepositFact> = {}): DepositFact => ({
  chain: 'base',
  network: 'testnet',
  token: 'USDC',
  txHash: '0xaa',
  logIndex: 0,
  toAddress: ADDRESS.toLowerCase(),
  amount: 10_000_000n,
  stage: 'confirmed',
  confirmations: 64,
  credited: true,
  ...overrides,
});

describe('deposit backing', () => {
  it('backs a payout with confirmed deposits that add up to it, the EVM address in any case', () => {
    const parts = [fact({ amount: 4_000_000n }), fact({ txHash: '0xbb', amount: 6_000_000n, toAddress: ADDRESS })];
    expect(judgeDepositBacking(terms, parts)).toEqual({ kind: 'backed', deposits: parts });
  });

  it('backs a payout only with what refunds left of the deposits', () => {
    const deposits = [fact({ amount: 12_000_000n })];
    expect(judgeDepositBacking({ ...terms, refundedUsdMicros: 2_000_000n }, deposits)).toMatchObject({ kind: 'backed' });
    expect(judgeDepositBacking({ ...terms, refundedUsdMicros: 2_000_001n }, deposits)).toEqual({
      kind: 'refused',
      reason:
        "payment pay_1: the indexer's confirmed USDC deposits to its base testnet deposit address add up to 9999999 USDC base units once 2000001 refunded is taken off, less than the payout of 10000000; not paid",
    });
  });

  it('refuses without any deposit: a forged confirmation backs nothing', () => {
    expect(judgeDepositBacking(terms, [])).toEqual({
      kind: 'refused',
      reason:
        "payment pay_1: the indexer's confirmed USDC deposits to its base testnet deposit address add up to 0 USDC base units, less than the payout of 10000000; not paid",
    });
  });

  it('refuses a deposit one confirmation short of the depth, and names it', () => {
    const verdict = judgeDepositBacking(terms, [fact({ confirmations: 63 })]);
    expect(verdict).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('add up to 0 USDC base units (1 more not yet 64 confirmations deep)'),
    });
    expect(judgeDepositBacking(terms, [fact({ stage: 'detected', confirmations: 70 })]).kind).toBe('refused');
  });

  it('counts nothing sent elsewhere, on the other network, in another token or chain, or reorged', () => {
    for (const other of [
      fact({ toAddress: '0xAbCdEf0000000000000000000000000000000002' }),
      fact({ network: 'mainnet' }),
      fact({ token: 'USDT' }),
      fact({ chain: 'polygon' }),
      fact({ stage: 'reorged' }),
    ]) {
      expect(judgeDepositBacking(terms, [other]).kind).toBe('refused');
    }
  });

  it('compares base58 addresses exactly, and refuses a session without an address on the chain', () => {
    const solana = {
      ...terms,
      chain: 'solana' as const,
      requiredConfirmations: 32,
      depositAddress: 'DepositAddr1111111111111111111111111111111',
    };
    const deposit = fact({ chain: 'solana', confirmations: 32, toAddress: solana.depositAddress });
    expect(judgeDepositBacking(solana, [deposit]).kind).toBe('backed');
    expect(judgeDepositBacking(solana, [{ ...deposit, toAddress: solana.depositAddress.toLowerCase() }]).kind).toBe('refused');
    expect(judgeDepositBacking({ ...solana, depositAddress: null }, [deposit])).toEqual({
      kind: 'refused',
      reason: "payment pay_1's session has no deposit address on solana; no deposit backs its payout",
    });
  });

  it('rescales 18-decimal amounts to USDC base units, truncating below a micro-unit', () => {
    const bsc = { ...terms, chain: 'bsc' as const, decimals: 18, requiredConfirmations: 15 };
    const exactly = fact({ chain: 'bsc', confirmations: 15, amount: 10_000_000n * 10n ** 12n });
    expect(judgeDepositBacking(bsc, [exactly]).kind).toBe('backed');
    expect(judgeDepositBacking(bsc, [{ ...exactly, amount: exactly.amount - 1n }]).kind).toBe('refused');
  });

  it('re-reads a test payout from the chain only strictly above the threshold, and every live payout whatever its size', () => {
    expect(needsChainReread('test', 1_000_000_000n, 1_000_000_000n)).toBe(false);
    expect(needsChainReread('test', 1_000_000_001n, 1_000_000_000n)).toBe(true);
    expect(needsChainReread('test', 1n, 0n)).toBe(true);
    expect(needsChainReread('live', 1n, 1_000_000_000n)).toBe(true);
  });

  it("re-reads from the last URL other than the indexer's first; a live payout never from the indexer's own", () => {
    expect(rereadRpcUrl('live', ['https://a.example', 'https://b.example', 'https://c.example'])).toBe('https://c.example/');
    expect(rereadRpcUrl('live', ['https://a.example', 'https://b.example', 'https://a.example/'])).toBe('https://b.example/');
    expect(rereadRpcUrl('live', ['https://a.example', 'https://a.example/'])).toBeUndefined();
    expect(rereadRpcUrl('live', ['https://a.example'])).toBeUndefined();
    expect(rereadRpcUrl('live', [])).toBeUndefined();
    expect(rereadRpcUrl('test', ['https://a.example'])).toBe('https://a.example/');
    expect(rereadRpcUrl('test', [])).toBeUndefined();
  });

  it('names each live chain without a second provider, once, and Tron only without its HTTP API', () => {
    const urls: Partial<Record<string, string[]>> = { solana: ['https://a.example', 'https://b.example'], base: ['https://a.example'] };
    const mainnet = { rpcUrls: (chain: string) => urls[chain] ?? [], tronHttpApi: false };
    expect(liveRereadGaps(['solana', 'base', 'base', 'tron', 'polygon'], mainnet)).toEqual([
      { chain: 'base', variable: 'RPC_URLS_BASE_MAINNET' },
      { chain: 'tron', variable: 'TRON_HTTP_API_URL_MAINNET' },
      { chain: 'polygon', variable: 'RPC_URLS_POLYGON_MAINNET' },
    ]);
    expect(liveRereadGaps(['solana', 'tron'], { ...mainnet, tronHttpApi: true })).toEqual([]);
  });

  it("accepts the chain's reading only when it shows the indexer's amount at the required depth", () => {
    expect(judgeChainReading(fact(), { kind: 'credited', amount: 10_000_000n, confirmations: 64 }, 64, 0)).toEqual({ kind: 'agrees' });
    expect(judgeChainReading(fact(), { kind: 'credited', amount: 9_000_000n, confirmations: 70 }, 64, 0)).toEqual({
      kind: 'refused',
      reason: 'deposit 0xaa#0 on base: the node shows 9000000 base units credited, the indexer recorded 10000000',
    });
  });

  it('waits for a node that has not seen the deposit, or not as deep, until the bound; then refuses', () => {
    const shallow = { kind: 'credited', amount: 10_000_000n, confirmations: 63 } as const;
    expect(judgeChainReading(fact(), shallow, 64, 0)).toEqual({
      kind: 'wait',
      reason: 'deposit 0xaa#0 on base: the node shows 63 confirmations, fewer than the 64 required',
    });
    expect(judgeChainReading(fact(), { kind: 'unseen' }, 64, REREAD_WAIT_MS - 1)).toEqual({
      kind: 'wait',
      reason: 'deposit 0xaa#0 on base: the node has no record of the transaction, though the indexer recorded 10000000',
    });
    expect(judgeChainReading(fact(), shallow, 64, REREAD_WAIT_MS)).toEqual({
      kind: 'refused',
      reason: 'deposit 0xaa#0 on base: the node shows 63 confirmations, fewer than the 64 required, still after 30 minutes of waiting',
    });
    expect(judgeChainReading(fact(), { kind: 'unseen' }, 64, REREAD_WAIT_MS)).toMatchObject({ kind: 'refused' });
  });

  it('refuses at once what no wait changes: a failed transaction, or one that credits no such token to the address', () => {
    expect(judgeChainReading(fact(), { kind: 'failed' }, 64, 0)).toEqual({
      kind: 'refused',
      reason: 'deposit 0xaa#0 on base: the node shows the transaction failed, though the indexer recorded 10000000',
    });
    expect(judgeChainReading(fact(), { kind: 'uncredited' }, 64, 0)).toEqual({
      kind: 'refused',
      reason: 'deposit 0xaa#0 on base: the node shows no USDC credit to the deposit address, though the indexer recorded 10000000',
    });
  });
});
