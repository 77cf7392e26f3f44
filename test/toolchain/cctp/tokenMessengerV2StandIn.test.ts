import { readFileSync } from 'node:fs';
import { address } from '@solana/kit';
import { ContractFunctionRevertedError, erc20Abi, getAddress, parseAbi, parseEventLogs } from 'viem';
import type { Abi, Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPOSIT_FOR_BURN_TOPIC, MESSAGE_SENT_TOPIC, tokenMessengerV2Abi } from '../../../domain/cctp/cctpAbi';
import { depositForBurnCalldata, solanaAddressBytes32 } from '../../../domain/cctp/depositForBurn';
import { SOLANA_CCTP_DOMAIN } from '../../../domain/cctp/domains';
import { addressToBytes32, decodeBurnMessageV2, decodeMessageV2, EMPTY_BYTES32 } from '../../../domain/cctp/messageV2';
import { deployCctpStandIn, SOLANA_TOKEN_MESSENGER_MINTER_V2 } from '../../../toolchain/cctp/cctpStandIn';
import type { CctpStandIn } from '../../../toolchain/cctp/cctpStandIn';
import { createLocalChain } from '../../../toolchain/localChain/localChain';
import type { LocalChain } from '../../../toolchain/localChain/localChain';

// Circle's own ABI entries (docs/abis/cctp/v2.1), so the logs are read as any CCTP indexer would read them.
const circle = JSON.parse(readFileSync(new URL('../../fixtures/cctp/circleAbiV2.json', import.meta.url), 'utf8')) as {
  tokenMessengerV2: Abi;
  messageTransmitterV2: Abi;
};
const approveAbi = parseAbi(['function approve(address spender, uint256 value) returns (bool)']);
const treasuryTokenAccount = address('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM');

describe('the TokenMessengerV2 stand-in on Hardhat', () => {
  let chain: LocalChain;
  let usdc: Address;
  let standIn: CctpStandIn;
  let feeCharging: CctpStandIn;
  const depositor = 3;

  beforeAll(async () => {
    chain = await createLocalChain();
    usdc = getAddress(await chain.deployToken({ symbol: 'USDC', decimals: 6 }));
    standIn = await deployCctpStandIn(chain, { burnToken: usdc });
    feeCharging = await deployCctpStandIn(chain, { burnToken: usdc, minFee: 1_000n });
    await chain.mint(usdc, chain.account(depositor).address, 100_000_000n);
  });

  afterAll(async () => {
    await chain?.stop();
  });

  async function burn(target: CctpStandIn, amount: bigint, maxFee: bigint, speed: 'fast' | 'standard') {
    const wallet = chain.walletClientFor(depositor);
    await chain.publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address: usdc, abi: approveAbi, functionName: 'approve', args: [target.tokenMessenger, amount] }),
    });
    const data = depositForBurnCalldata({
      amount,
      destinationDomain: SOLANA_CCTP_DOMAIN,
      mintRecipient: solanaAddressBytes32(treasuryTokenAccount),
      burnToken: usdc,
      maxFee,
      speed,
    });
    const hash = await wallet.sendTransaction({ to: target.tokenMessenger, data });
    return chain.publicClient.waitForTransactionReceipt({ hash });
  }

  it('pulls and burns the USDC and emits MessageSent then DepositForBurn, readable with Circle’s ABI', async () => {
    const supplyBefore = await chain.publicClient.readContract({ address: usdc, abi: erc20Abi, functionName: 'totalSupply' });
    const receipt = await burn(standIn, 25_000_000n, 0n, 'standard');
    expect(receipt.status).toBe('success');
    expect(await chain.publicClient.readContract({ address: usdc, abi: erc20Abi, functionName: 'totalSupply' })).toBe(
      supplyBefore - 25_000_000n,
    );
    expect(
      await chain.publicClient.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [standIn.tokenMessenger] }),
    ).toBe(0n);

    const sent = receipt.logs.find((log) => log.topics[0] === MESSAGE_SENT_TOPIC);
    const deposit = receipt.logs.find((log) => log.topics[0] === DEPOSIT_FOR_BURN_TOPIC);
    expect(getAddress(sent?.address ?? '0x')).toBe(standIn.messageTransmitter);
    expect(getAddress(deposit?.address ?? '0x')).toBe(standIn.tokenMessenger);
    expect(sent!.logIndex).toBeLessThan(deposit!.logIndex);

    const [depositLog] = parseEventLogs({ abi: circle.tokenMessengerV2, logs: [deposit!], strict: true }) as unknown as [
      { eventName: string; args: Record<string, unknown> },
    ];
    expect(depositLog.eventName).toBe('DepositForBurn');
    const remoteTokenMessenger = solanaAddressBytes32(address(SOLANA_TOKEN_MESSENGER_MINTER_V2));
    expect(depositLog.args).toEqual({
      burnToken: usdc,
      amount: 25_000_000n,
      depositor: chain.account(depositor).address,
      mintRecipient: solanaAddressBytes32(treasuryTokenAccount),
      destinationDomain: 5,
      destinationTokenMessenger: remoteTokenMessenger,
      destinationCaller: EMPTY_BYTES32,
      maxFee: 0n,
      minFinalityThreshold: 2000,
      hookData: '0x',
    });

    const [sentLog] = parseEventLogs({ abi: circle.messageTransmitterV2, logs: [sent!], strict: true }) as unknown as [
      { args: { message: Hex } },
    ];
    const header = decodeMessageV2(sentLog.args.message);
    expect(header).toMatchObject({
      version: 1,
      sourceDomain: 0,
      destinationDomain: 5,
      nonce: EMPTY_BYTES32,
      sender: addressToBytes32(standIn.tokenMessenger),
      recipient: remoteTokenMessenger,
      destinationCaller: EMPTY_BYTES32,
      minFinalityThreshold: 2000,
      finalityThresholdExecuted: 0,
    });
    expect(decodeBurnMessageV2(header.messageBody)).toEqual({
      version: 1,
      burnToken: addressToBytes32(usdc),
      mintRecipient: solanaAddressBytes32(treasuryTokenAccount),
      amount: 25_000_000n,
      messageSender: addressToBytes32(chain.account(depositor).address),
      maxFee: 0n,
      feeExecuted: 0n,
      expirationBlock: 0n,
      hookData: '0x',
    });
  });

  it('answers getMinFeeAmount as TokenMessengerV2 does, and refuses a maxFee below it', async () => {
    const read = (target: CctpStandIn, amount: bigint) =>
      chain.publicClient.readContract({
        address: target.tokenMessenger,
        abi: tokenMessengerV2Abi,
        functionName: 'getMinFeeAmount',
        args: [amount],
      });
    expect(await read(standIn, 10_000_000n)).toBe(0n);
    // minFee 1000 is 1 bps: 1,000 USDC pays at least 0.1 USDC, and a tiny amount at least 1 unit.
    expect(await read(feeCharging, 1_000_000_000n)).toBe(100_000n);
    expect(await read(feeCharging, 2n)).toBe(1n);

    const simulate = (target: CctpStandIn, amount: bigint, maxFee: bigint) =>
      chain.publicClient.simulateContract({
        account: chain.account(depositor),
        address: target.tokenMessenger,
        abi: tokenMessengerV2Abi,
        functionName: 'depositForBurn',
        args: [amount, SOLANA_CCTP_DOMAIN, solanaAddressBytes32(treasuryTokenAccount), usdc, EMPTY_BYTES32, maxFee, 1000],
      });
    const reason = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      const revert = (error as { walk?: (fn: (e: unknown) => boolean) => unknown })?.walk?.(
        (e) => e instanceof ContractFunctionRevertedError,
      );
      return (revert as ContractFunctionRevertedError | undefined)?.reason;
    };
    expect(await reason(simulate(feeCharging, 10_000_000n, 999n))).toBe('Insufficient max fee');
    expect(await reason(simulate(standIn, 10_000_000n, 10_000_000n))).toBe('Max fee must be less than amount');
    const receipt = await burn(feeCharging, 10_000_000n, 1_000n, 'fast');
    expect(receipt.status).toBe('success');
  });
});
