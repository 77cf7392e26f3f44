import { fileURLToPath } from 'node:url';
import { address as solanaAddress } from '@solana/kit';
import {
  BaseError,
  ContractFunctionRevertedError,
  erc20Abi,
  getAddress,
  parseEventLogs,
  zeroAddress,
  type Address,
  type ContractFunctionName,
} from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as depositCollector from '../../contracts/artifacts/depositCollector';
import { deployDepositCollector } from '../../contracts/deployer';
import { DEPOSIT_FOR_BURN_TOPIC, MESSAGE_SENT_TOPIC, messageTransmitterV2Abi, tokenMessengerV2Abi } from '../../domain/cctp/cctpAbi';
import { solanaAddressBytes32 } from '../../domain/cctp/depositForBurn';
import { FINALITY_THRESHOLD_STANDARD } from '../../domain/cctp/finality';
import { addressToBytes32, decodeBurnMessageV2, decodeMessageV2, EMPTY_BYTES32 } from '../../domain/cctp/messageV2';
import { depositCollectorAddress, type DepositCollectorParams } from '../../domain/chains/depositContracts';
import { quoterV2Abi } from '../../domain/swaps/uniswapV3Abi';
import { deployCctpStandIn, type CctpStandIn } from '../../toolchain/cctp/cctpStandIn';
import { createLocalChain, type LocalChain } from '../../toolchain/localChain/localChain';
import { compileContract } from '../../toolchain/solidity/compileSolidity';
import { deployUniswapV3, seedPool, type UniswapV3 } from '../../toolchain/uniswap/uniswapV3';

const OWNER = 1;
const SWEEPER = 2;
const STRANGER = 3;
const treasuryTokenAccount = solanaAddressBytes32(solanaAddress('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'));
const rotatedTokenAccount = solanaAddressBytes32(solanaAddress('7YttLkHDoNj9wyDur5pM1ejNaAvT9X4eqaYcHQqtj2G5'));
const POOL_FEE = 100;
const FAKE_ROUTER = { name: 'FakeSwapRouter', files: [fileURLToPath(new URL('./FakeSwapRouter.sol', import.meta.url))] };

describe('DepositCollector on Hardhat, burning through the TokenMessengerV2 stand-in', () => {
  let chain: LocalChain;
  let usdc: Address;
  let standIn: CctpStandIn;
  let params: DepositCollectorParams;
  let collector: Address;
  let usdt: Address;
  let uniswap: UniswapV3;

  beforeAll(async () => {
    chain = await createLocalChain();
    usdc = getAddress(await chain.deployToken({ symbol: 'USDC', decimals: 6 }));
    // Ethereum USDT's approve and transfer return nothing: the collector's low-level calls must take that.
    usdt = getAddress(await chain.deployToken({ symbol: 'USDT', decimals: 6, kind: 'noReturn' }));
    uniswap = await deployUniswapV3(chain);
    await seedPool(chain, uniswap, { tokenA: usdt, tokenB: usdc, fee: POOL_FEE, wholeTokens: 10_000_000n });
    standIn = await deployCctpStandIn(chain, { burnToken: usdc, minFee: 1_000n });
    params = {
      tokenMessenger: standIn.tokenMessenger,
      mintRecipient: treasuryTokenAccount,
      owner: chain.account(OWNER).address,
      sweeper: chain.account(SWEEPER).address,
    };
    const steps = await deployDepositCollector({ publicClient: chain.publicClient, walletClient: chain.walletClient }, params);
    collector = steps.find((step) => step.contract === 'DepositCollector')!.address;
  });

  afterAll(async () => {
    await chain?.stop();
  });

  const balanceOf = (owner: Address, token: Address = usdc) =>
    chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

  async function call(as: number, functionName: ContractFunctionName<typeof depositCollector.abi, 'nonpayable'>, args: readonly unknown[]) {
    const hash = await chain
      .walletClientFor(as)
      .writeContract({ address: collector, abi: depositCollector.abi, functionName, args } as never);
    return chain.publicClient.waitForTransactionReceipt({ hash });
  }

  async function revertName(as: number, functionName: Parameters<typeof call>[1], args: readonly unknown[]): Promise<string | undefined> {
    try {
      await chain.publicClient.simulateContract({
        account: chain.account(as),
        address: collector,
        abi: depositCollector.abi,
        functionName,
        args,
      } as never);
      return undefined;
    } catch (error) {
      const revert = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined;
      const reverted = revert as ContractFunctionRevertedError | undefined;
      return reverted?.reason ?? reverted?.data?.errorName;
    }
  }

  test('sits at the offline address, and deploying again changes nothing', async () => {
    expect(collector).toBe(depositCollectorAddress(params));
    const again = await deployDepositCollector({ publicClient: chain.publicClient, walletClient: chain.walletClient }, params);
    expect(again.map((step) => step.outcome)).toEqual(['present', 'present']);
  });

  test('a sweeper burns to the configured token account: byte-exact MessageSent and DepositForBurn, nothing left approved', async () => {
    await chain.mint(usdc, collector, 30_000_000n);
    const receipt = await call(SWEEPER, 'burn', [usdc, 20_000_000n, 2_000n, FINALITY_THRESHOLD_STANDARD]);
    expect(receipt.status).toBe('success');
    expect(await balanceOf(collector)).toBe(10_000_000n);
    const allowance = await chain.publicClient.readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [collector, standIn.tokenMessenger],
    });
    expect(allowance).toBe(0n);

    const sent = parseEventLogs({
      abi: messageTransmitterV2Abi,
      eventName: 'MessageSent',
      logs: receipt.logs.filter((log) => log.topics[0] === MESSAGE_SENT_TOPIC),
    });
    expect(sent).toHaveLength(1);
    const header = decodeMessageV2(sent[0]!.args.message);
    expect(header).toMatchObject({
      sourceDomain: 0,
      destinationDomain: 5,
      nonce: EMPTY_BYTES32,
      destinationCaller: EMPTY_BYTES32,
      minFinalityThreshold: 2000,
    });
    expect(decodeBurnMessageV2(header.messageBody)).toEqual({
      version: 1,
      burnToken: addressToBytes32(usdc),
      mintRecipient: treasuryTokenAccount,
      amount: 20_000_000n,
      messageSender: addressToBytes32(collector),
      maxFee: 2_000n,
      feeExecuted: 0n,
      expirationBlock: 0n,
      hookData: '0x',
    });
    const deposit = parseEventLogs({
      abi: tokenMessengerV2Abi,
      eventName: 'DepositForBurn',
      logs: receipt.logs.filter((log) => log.topics[0] === DEPOSIT_FOR_BURN_TOPIC),
    });
    expect(deposit.map((log) => log.args)).toEqual([
      expect.objectContaining({
        burnToken: usdc,
        amount: 20_000_000n,
        depositor: collector,
        mintRecipient: treasuryTokenAccount,
        destinationDomain: 5,
        destinationCaller: EMPTY_BYTES32,
        maxFee: 2_000n,
      }),
    ]);
    const burned = parseEventLogs({ abi: depositCollector.abi, eventName: 'Burned', logs: receipt.logs });
    expect(burned.map((log) => log.args)).toEqual([
      { token: usdc, amount: 20_000_000n, maxFee: 2_000n, minFinalityThreshold: 2000, mintRecipient: treasuryTokenAccount },
    ]);
  });

  test('nobody but a sweeper burns, and nobody but the owner withdraws or changes the recipient', async () => {
    await chain.mint(usdc, collector, 5_000_000n);
    for (const who of [OWNER, STRANGER]) expect(await revertName(who, 'burn', [usdc, 1_000_000n, 1_000n, 2000])).toBe('NotSweeper');
    for (const who of [SWEEPER, STRANGER]) {
      expect(await revertName(who, 'withdraw', [usdc, chain.account(who).address, 1n])).toBe('NotOwner');
      expect(await revertName(who, 'setMintRecipient', [rotatedTokenAccount])).toBe('NotOwner');
      expect(await revertName(who, 'setSweeper', [chain.account(who).address, true])).toBe('NotOwner');
    }
    // The messenger's own checks hold for a sweeper too: a fee under the minimum is refused before anything moves.
    expect(await revertName(SWEEPER, 'burn', [usdc, 1_000_000n, 0n, 2000])).toBe('Insufficient max fee');
  });

  test('the owner withdraws to any address and rotates the recipient, which the next burn uses', async () => {
    const before = await balanceOf(collector);
    const to = chain.account(STRANGER).address;
    const receipt = await call(OWNER, 'withdraw', [usdc, to, 1_000_000n]);
    expect(parseEventLogs({ abi: depositCollector.abi, eventName: 'Withdrawn', logs: receipt.logs }).map((log) => log.args)).toEqual([
      { token: usdc, to, amount: 1_000_000n },
    ]);
    expect(await balanceOf(collector)).toBe(before - 1_000_000n);

    await call(OWNER, 'setMintRecipient', [rotatedTokenAccount]);
    const burn = await call(SWEEPER, 'burn', [usdc, 1_000_000n, 100n, 1000]);
    const [deposit] = parseEventLogs({ abi: tokenMessengerV2Abi, eventName: 'DepositForBurn', logs: burn.logs });
    expect(deposit?.args.mintRecipient).toBe(rotatedTokenAccount);
    expect(depositCollectorAddress(params)).toBe(collector);
  });

  test('deploys over a messenger without code (a chain CCTP does not reach): burns revert, the owner withdraws', async () => {
    // bsc has no TokenMessengerV2, yet its factory sweeps to the collector's one address: a contract must sit there.
    const bscParams = { ...params, tokenMessenger: chain.account(STRANGER).address };
    const steps = await deployDepositCollector({ publicClient: chain.publicClient, walletClient: chain.walletClient }, bscParams);
    const bscCollector = steps.find((step) => step.contract === 'DepositCollector')!.address;
    expect(bscCollector).toBe(depositCollectorAddress(bscParams));
    await chain.mint(usdc, bscCollector, 2_000_000n);
    await expect(
      chain.publicClient.simulateContract({
        account: chain.account(SWEEPER),
        address: bscCollector,
        abi: depositCollector.abi,
        functionName: 'burn',
        args: [usdc, 2_000_000n, 0n, 2000],
      }),
    ).rejects.toThrow();
    const hash = await chain.walletClientFor(OWNER).writeContract({
      address: bscCollector,
      abi: depositCollector.abi,
      functionName: 'withdraw',
      args: [usdc, chain.account(OWNER).address, 2_000_000n],
    });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await balanceOf(bscCollector)).toBe(0n);
  });

  test('only the owner sets the swap router, the token out, the deviation and the rebalance address', async () => {
    const setters = [
      ['setSwapRouter', uniswap.swapRouter, 'SwapRouterSet', 'swapRouter'],
      ['setSwapTokenOut', usdc, 'SwapTokenOutSet', 'swapTokenOut'],
      ['setMaxSwapDeviationBps', 50, 'MaxSwapDeviationBpsSet', 'maxSwapDeviationBps'],
      ['setRebalanceAddress', chain.account(STRANGER).address, 'RebalanceAddressSet', 'rebalanceAddress'],
    ] as const;
    for (const [setter, value] of setters) {
      for (const who of [SWEEPER, STRANGER]) expect(await revertName(who, setter, [value]), setter).toBe('NotOwner');
    }
    expect(await revertName(OWNER, 'setMaxSwapDeviationBps', [10_001])).toBe('DeviationTooLarge');
    for (const [setter, value, eventName, getter] of setters) {
      const receipt = await call(OWNER, setter, [value]);
      const [event] = parseEventLogs({ abi: depositCollector.abi, eventName, logs: receipt.logs });
      expect(Object.values(event!.args), setter).toEqual([value]);
      expect(await chain.publicClient.readContract({ address: collector, abi: depositCollector.abi, functionName: getter })).toBe(value);
    }
  });

  test('a sweeper swaps USDT to USDC through the real pool at the quoted amount, judged by balance, nothing left approved', async () => {
    await chain.mint(usdt, collector, 1_000_000_000n);
    const [usdtBefore, usdcBefore] = [await balanceOf(collector, usdt), await balanceOf(collector)];
    const { result } = await chain.publicClient.simulateContract({
      address: uniswap.quoter,
      abi: quoterV2Abi,
      functionName: 'quoteExactInputSingle',
      args: [{ tokenIn: usdt, tokenOut: usdc, amountIn: 1_000_000_000n, fee: POOL_FEE, sqrtPriceLimitX96: 0n }],
    });
    const [quoted] = result;
    // 1000 USDT through the 0.01% pool: the fee and a sliver of slippage, well inside 50 bps.
    expect(quoted).toBeLessThan(1_000_000_000n);
    expect(quoted).toBeGreaterThan(999_000_000n);

    const receipt = await call(SWEEPER, 'swap', [usdt, POOL_FEE, 1_000_000_000n, quoted]);
    expect(parseEventLogs({ abi: depositCollector.abi, eventName: 'Swapped', logs: receipt.logs }).map((log) => log.args)).toEqual([
      { tokenIn: usdt, amountIn: 1_000_000_000n, amountOut: quoted },
    ]);
    expect(await balanceOf(collector, usdt)).toBe(usdtBefore - 1_000_000_000n);
    expect(await balanceOf(collector)).toBe(usdcBefore + quoted);
    const allowance = await chain.publicClient.readContract({
      address: usdt,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [collector, uniswap.swapRouter],
    });
    expect(allowance).toBe(0n);
  });

  test('a swap is refused below the on-chain floor, for a non-sweeper, unconfigured, to itself, of nothing, or short of the minimum', async () => {
    await chain.mint(usdt, collector, 100_000_000n);
    // 50 bps under 1:1: 100 USDT may go for no less than 99.5 USDC, whatever the sweeper asks.
    expect(await revertName(SWEEPER, 'swap', [usdt, POOL_FEE, 100_000_000n, 99_499_999n])).toBe('MinimumOutBelowFloor');
    expect(await revertName(SWEEPER, 'swap', [usdt, POOL_FEE, 100_000_000n, 0n])).toBe('MinimumOutBelowFloor');
    for (const who of [OWNER, STRANGER])
      expect(await revertName(who, 'swap', [usdt, POOL_FEE, 100_000_000n, 100_000_000n])).toBe('NotSweeper');
    expect(await revertName(SWEEPER, 'swap', [usdc, POOL_FEE, 100_000_000n, 100_000_000n])).toBe('SwapSameToken');
    expect(await revertName(SWEEPER, 'swap', [usdt, POOL_FEE, 0n, 0n])).toBe('ZeroAmount');
    // At the floor the pool's own minimum check still holds: it cannot give 99.999 USDC for 100 USDT at 0.01%.
    expect(await revertName(SWEEPER, 'swap', [usdt, POOL_FEE, 100_000_000n, 99_999_999n])).toBe('Too little received');

    await call(OWNER, 'setSwapRouter', [zeroAddress]);
    expect(await revertName(SWEEPER, 'swap', [usdt, POOL_FEE, 100_000_000n, 100_000_000n])).toBe('SwapNotConfigured');
    await call(OWNER, 'setSwapRouter', [uniswap.swapRouter]);
  });

  test('the floor converts by both decimals', async () => {
    const eighteen = getAddress(await chain.deployToken({ symbol: 'BUSDT', decimals: 18 }));
    const floor = (tokenIn: Address, tokenOut: Address, amount: bigint) =>
      chain.publicClient.readContract({
        address: collector,
        abi: depositCollector.abi,
        functionName: 'swapFloor',
        args: [tokenIn, tokenOut, amount],
      });
    expect(await floor(eighteen, usdc, 10n ** 18n)).toBe(995_000n);
    expect(await floor(usdt, eighteen, 1_000_000n)).toBe(995n * 10n ** 15n);
  });

  test("a router that pulls less keeps no approval; one that delivers less than the minimum is refused by the collector's balance", async () => {
    const { abi, bytecode } = await compileContract(FAKE_ROUTER, 'FakeSwapRouter');
    const deployRouter = async (deliver: boolean) => {
      const hash = await chain.walletClient.deployContract({ abi, bytecode, args: [deliver] });
      return getAddress((await chain.publicClient.waitForTransactionReceipt({ hash })).contractAddress!);
    };
    const [delivering, withholding] = [await deployRouter(true), await deployRouter(false)];
    await chain.mint(usdc, delivering, 10_000_000n);
    await chain.mint(usdt, collector, 10_000_000n);

    await call(OWNER, 'setSwapRouter', [delivering]);
    const usdtBefore = await balanceOf(collector, usdt);
    const receipt = await call(SWEEPER, 'swap', [usdt, POOL_FEE, 10_000_000n, 9_950_000n]);
    expect(parseEventLogs({ abi: depositCollector.abi, eventName: 'Swapped', logs: receipt.logs }).map((log) => log.args)).toEqual([
      { tokenIn: usdt, amountIn: 10_000_000n, amountOut: 9_950_000n },
    ]);
    expect(await balanceOf(collector, usdt)).toBe(usdtBefore - 5_000_000n);
    const allowance = await chain.publicClient.readContract({
      address: usdt,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [collector, delivering],
    });
    expect(allowance).toBe(0n);

    await call(OWNER, 'setSwapRouter', [withholding]);
    expect(await revertName(SWEEPER, 'swap', [usdt, POOL_FEE, 10_000_000n, 9_950_000n])).toBe('SwapShortfall');
    await call(OWNER, 'setSwapRouter', [uniswap.swapRouter]);
  });

  test('a sweeper rebalances only to the rebalance address, judged by balance; nobody else may', async () => {
    const to = chain.account(STRANGER).address;
    await chain.mint(usdt, collector, 3_000_000n);
    const [held, received] = [await balanceOf(collector, usdt), await balanceOf(to, usdt)];
    for (const who of [OWNER, STRANGER]) expect(await revertName(who, 'rebalance', [usdt, 1n])).toBe('NotSweeper');
    expect(await revertName(SWEEPER, 'rebalance', [usdt, held + 1n])).toBe('TransferFailed');

    const receipt = await call(SWEEPER, 'rebalance', [usdt, 3_000_000n]);
    expect(parseEventLogs({ abi: depositCollector.abi, eventName: 'Rebalanced', logs: receipt.logs }).map((log) => log.args)).toEqual([
      { token: usdt, to, amount: 3_000_000n },
    ]);
    expect(await balanceOf(collector, usdt)).toBe(held - 3_000_000n);
    expect(await balanceOf(to, usdt)).toBe(received + 3_000_000n);

    await call(OWNER, 'setRebalanceAddress', [zeroAddress]);
    expect(await revertName(SWEEPER, 'rebalance', [usdt, 1n])).toBe('NoRebalanceAddress');
  });

  test('ownership moves in two steps, and only to who accepts', async () => {
    await call(OWNER, 'transferOwnership', [chain.account(STRANGER).address]);
    expect(await revertName(SWEEPER, 'acceptOwnership', [])).toBe('NotPendingOwner');
    await call(STRANGER, 'acceptOwnership', []);
    expect(await chain.publicClient.readContract({ address: collector, abi: depositCollector.abi, functionName: 'owner' })).toBe(
      chain.account(STRANGER).address,
    );
    expect(await revertName(OWNER, 'withdraw', [usdc, chain.account(OWNER).address, 1n])).toBe('NotOwner');
  });
});
