import { BlockNotFoundError, erc20Abi, getAbiItem, TransactionReceiptNotFoundError, zeroAddress } from 'viem';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createLocalChain } from '../../../toolchain/localChain/localChain';
import type { LocalChain } from '../../../toolchain/localChain/localChain';

const transferEvent = getAbiItem({ abi: erc20Abi, name: 'Transfer' });

describe('local EVM chain harness', () => {
  let chain: LocalChain;
  let payer: Address;
  // Stands in for a session's deposit address: a funded dev account that no helper sends from by default.
  let deposit: Address;

  beforeAll(async () => {
    chain = await createLocalChain();
    payer = chain.account(1).address;
    deposit = chain.account(7).address;
  });

  afterAll(async () => {
    await chain?.stop();
  });

  async function balanceOf(token: Address, owner: Address): Promise<bigint> {
    return chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
  }

  test('is chain 31337 with Hardhat dev account 0 funded', async () => {
    expect(chain.chainId).toBe(31337);
    expect(await chain.publicClient.getChainId()).toBe(31337);
    expect(chain.account(0).address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(await chain.publicClient.getBalance({ address: chain.account(0).address })).toBeGreaterThan(0n);
  });

  test('Transfer logs of 6- and 18-decimal tokens read back exactly', async () => {
    const cases = [
      { symbol: 'USDC', decimals: 6, amount: 1_234_567n },
      // Above 2^53: any detour through a JS number would lose the low digits.
      { symbol: 'USDT', decimals: 18, amount: 1_234_567_890_123_456_789n },
    ];
    const firstBlock = (await chain.blockNumber()) + 1n;
    const sent = [];
    for (const { symbol, decimals, amount } of cases) {
      const token = await chain.deployToken({ symbol, decimals });
      expect(await chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' })).toBe(decimals);
      expect(await chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' })).toBe(symbol);

      const minted = await chain.mint(token, payer, amount * 3n);
      const transferred = await chain.transfer(token, 1, deposit, amount);
      sent.push({ token, amount, minted, transferred });

      const logs = await chain.publicClient.getLogs({
        address: token,
        event: transferEvent,
        fromBlock: transferred.blockNumber,
        toBlock: transferred.blockNumber,
      });
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({
        address: token.toLowerCase(),
        transactionHash: transferred.hash,
        blockHash: transferred.blockHash,
        blockNumber: transferred.blockNumber,
        logIndex: transferred.logIndex,
        args: { from: payer, to: deposit, value: amount },
      });
      expect(await balanceOf(token, deposit)).toBe(amount);
      expect(await balanceOf(token, payer)).toBe(amount * 2n);
    }

    // An indexer scans a block range for every token at once; mints show up as transfers from the zero address.
    const scanned = await chain.publicClient.getLogs({ event: transferEvent, fromBlock: firstBlock, toBlock: await chain.blockNumber() });
    expect(scanned.map((log) => ({ token: log.address, ...log.args, blockHash: log.blockHash, logIndex: log.logIndex }))).toEqual(
      sent.flatMap(({ token, amount, minted, transferred }) => [
        {
          token: token.toLowerCase(),
          from: zeroAddress,
          to: payer,
          value: amount * 3n,
          blockHash: minted.blockHash,
          logIndex: minted.logIndex,
        },
        {
          token: token.toLowerCase(),
          from: payer,
          to: deposit,
          value: amount,
          blockHash: transferred.blockHash,
          logIndex: transferred.logIndex,
        },
      ]),
    );
  });

  test('mine(12) advances the head by exactly 12 blocks', async () => {
    const before = await chain.blockNumber();
    await chain.mine(12);
    expect(await chain.blockNumber()).toBe(before + 12n);
  });

  test('reverting a snapshot orphans a transfer block, as a reorg would', async () => {
    const token = await chain.deployToken({ symbol: 'USDC', decimals: 6 });
    await chain.mint(token, payer, 10_000_000n);

    const snapshot = await chain.snapshot();
    const orphaned = await chain.transfer(token, 1, deposit, 4_000_000n);
    expect((await chain.publicClient.getBlock({ blockNumber: orphaned.blockNumber })).hash).toBe(orphaned.blockHash);

    await chain.revert(snapshot);
    expect(await chain.blockNumber()).toBe(orphaned.blockNumber - 1n);
    await chain.mine(3);

    const replacement = await chain.publicClient.getBlock({ blockNumber: orphaned.blockNumber });
    expect(replacement.hash).not.toBe(orphaned.blockHash);
    expect(replacement.transactions).toHaveLength(0);
    await expect(chain.publicClient.getBlock({ blockHash: orphaned.blockHash })).rejects.toBeInstanceOf(BlockNotFoundError);
    await expect(chain.publicClient.getTransactionReceipt({ hash: orphaned.hash })).rejects.toBeInstanceOf(TransactionReceiptNotFoundError);
    const logs = await chain.publicClient.getLogs({
      address: token,
      event: transferEvent,
      fromBlock: orphaned.blockNumber,
      toBlock: orphaned.blockNumber,
    });
    expect(logs).toEqual([]);
    expect(await balanceOf(token, deposit)).toBe(0n);
    await expect(chain.revert(snapshot)).rejects.toThrow(/already used/);
  });

  test('interval mining produces empty blocks and picks up transfers without automine', async () => {
    const token = await chain.deployToken({ symbol: 'USDT', decimals: 18 });
    await chain.mint(token, payer, 10n ** 18n);

    await chain.setAutomine(false);
    await chain.setIntervalMining(100);
    try {
      const start = await chain.blockNumber();
      await vi.waitFor(async () => expect(await chain.blockNumber()).toBeGreaterThanOrEqual(start + 3n), { timeout: 10_000, interval: 50 });
      for (let height = start + 1n; height <= start + 3n; height++) {
        expect((await chain.publicClient.getBlock({ blockNumber: height })).transactions).toHaveLength(0);
      }

      const transferred = await chain.transfer(token, 1, deposit, 10n ** 18n);
      expect(transferred.blockNumber).toBeGreaterThan(start + 3n);
      expect(await balanceOf(token, deposit)).toBe(10n ** 18n);
    } finally {
      await chain.setIntervalMining(0);
      await chain.setAutomine(true);
    }
  });
});
