import { address as solanaAddress } from '@solana/kit';
import { BaseError, ContractFunctionRevertedError, erc20Abi, getAddress, parseEventLogs, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as depositCollector from '../../contracts/artifacts/depositCollector';
import { deployDepositCollector } from '../../contracts/deployer';
import { DEPOSIT_FOR_BURN_TOPIC, MESSAGE_SENT_TOPIC, messageTransmitterV2Abi, tokenMessengerV2Abi } from '../../domain/cctp/cctpAbi';
import { solanaAddressBytes32 } from '../../domain/cctp/depositForBurn';
import { FINALITY_THRESHOLD_STANDARD } from '../../domain/cctp/finality';
import { addressToBytes32, decodeBurnMessageV2, decodeMessageV2, EMPTY_BYTES32 } from '../../domain/cctp/messageV2';
import { depositCollectorAddress, type DepositCollectorParams } from '../../domain/chains/depositContracts';
import { deployCctpStandIn, type CctpStandIn } from '../../toolchain/cctp/cctpStandIn';
import { createLocalChain, type LocalChain } from '../../toolchain/localChain/localChain';

const OWNER = 1;
const SWEEPER = 2;
const STRANGER = 3;
const treasuryTokenAccount = solanaAddressBytes32(solanaAddress('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'));
const rotatedTokenAccount = solanaAddressBytes32(solanaAddress('7YttLkHDoNj9wyDur5pM1ejNaAvT9X4eqaYcHQqtj2G5'));

describe('DepositCollector on Hardhat, burning through the TokenMessengerV2 stand-in', () => {
  let chain: LocalChain;
  let usdc: Address;
  let standIn: CctpStandIn;
  let params: DepositCollectorParams;
  let collector: Address;

  beforeAll(async () => {
    chain = await createLocalChain();
    usdc = getAddress(await chain.deployToken({ symbol: 'USDC', decimals: 6 }));
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

  const balanceOf = (owner: Address) =>
    chain.publicClient.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

  async function call(
    as: number,
    functionName: 'burn' | 'withdraw' | 'setMintRecipient' | 'setSweeper' | 'transferOwnership' | 'acceptOwnership',
    args: readonly unknown[],
  ) {
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
