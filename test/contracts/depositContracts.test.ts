import { fileURLToPath } from 'node:url';
import {
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  parseEther,
  toFunctionSelector,
  zeroAddress,
  type Address,
} from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as depositFactory from '../../contracts/artifacts/depositFactory';
import * as depositForwarder from '../../contracts/artifacts/depositForwarder';
import { deployDepositContracts, PROXY_RUNTIME_CODE } from '../../contracts/deployer';
import { evmForwarderAddress } from '../../domain/addresses/depositForwarder';
import { depositContractAddresses, DETERMINISTIC_DEPLOYMENT_PROXY } from '../../domain/chains/depositContracts';
import { compileContract, type SolidityUnit } from '../../toolchain/solidity/compileSolidity';
import {
  addressOf,
  COLLECTOR,
  hasCode,
  nextSalt,
  OWNER,
  PAYER,
  startDepositContractsChain,
  STRANGER,
  SWEEPER,
  sweepMany,
  type DepositContractsChain,
} from './depositContractsFixture';

const SECOND_CHAIN_ID = 31338;

const REENTRANT_TOKEN: SolidityUnit = {
  name: 'ReentrantToken',
  files: [new URL('./ReentrantToken.sol', import.meta.url), new URL('../../toolchain/localChain/TestToken.sol', import.meta.url)].map(
    (url) => fileURLToPath(url),
  ),
};

describe('deposit contracts on a local Hardhat chain', () => {
  let main: DepositContractsChain;
  let second: DepositContractsChain;
  let usdc: Address;

  beforeAll(async () => {
    [main, second] = await Promise.all([startDepositContractsChain(), startDepositContractsChain({ chainId: SECOND_CHAIN_ID })]);
    usdc = getAddress(await main.chain.deployToken({ symbol: 'USDC', decimals: 6 }));
    await main.chain.mint(usdc, main.chain.account(PAYER).address, 1_000_000_000_000n);
  });

  afterAll(async () => {
    await Promise.all([main?.chain.stop(), second?.chain.stop()]);
  });

  const balanceOf = (token: Address, owner: Address) =>
    main.chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
  const collector = () => main.params.collector;

  test('deploys the proxy from its published transaction, then the forwarder and factory at the addresses computed offline', async () => {
    const expected = depositContractAddresses(main.params);
    expect(main.deployment).toMatchObject([
      { contract: 'DeterministicDeploymentProxy', address: DETERMINISTIC_DEPLOYMENT_PROXY, outcome: 'deployed' },
      { contract: 'DepositForwarder', address: expected.forwarder, outcome: 'deployed' },
      { contract: 'DepositFactory', address: expected.factory, outcome: 'deployed' },
    ]);
    expect(await main.chain.publicClient.getCode({ address: DETERMINISTIC_DEPLOYMENT_PROXY })).toBe(PROXY_RUNTIME_CODE);
    const read = (functionName: 'implementation' | 'collector' | 'owner') =>
      main.chain.publicClient.readContract({ address: main.factory, abi: depositFactory.abi, functionName });
    expect(await read('implementation')).toBe(expected.forwarder);
    expect(await read('collector')).toBe(main.params.collector);
    expect(await read('owner')).toBe(main.params.owner);
    expect(
      await main.chain.publicClient.readContract({
        address: main.factory,
        abi: depositFactory.abi,
        functionName: 'isSweeper',
        args: [main.params.sweeper],
      }),
    ).toBe(true);
  });

  test('deploying again sends nothing', async () => {
    const blockBefore = await main.chain.blockNumber();
    const again = await deployDepositContracts(
      { publicClient: main.chain.publicClient, walletClient: main.chain.walletClient },
      main.params,
    );
    expect(again.map((step) => [step.outcome, step.transactions.length])).toEqual([
      ['present', 0],
      ['present', 0],
      ['present', 0],
    ]);
    expect(await main.chain.blockNumber()).toBe(blockBefore);
  });

  test('the TS prediction, addressOf and the deployed clone agree, and are the same on a chain with another chain id', async () => {
    expect(second.chain.chainId).toBe(SECOND_CHAIN_ID);
    expect(await second.chain.publicClient.getChainId()).toBe(SECOND_CHAIN_ID);
    expect([second.factory, second.forwarder]).toEqual([main.factory, main.forwarder]);

    const salt = nextSalt();
    const predicted = evmForwarderAddress({ factory: main.factory, implementation: main.forwarder }, salt);
    expect(await addressOf(main, salt)).toBe(predicted);
    expect(await addressOf(second, salt)).toBe(predicted);

    await main.chain.transfer(usdc, PAYER, predicted, 5_000_000n);
    expect(await hasCode(main.chain, predicted)).toBe(false);
    const { swept } = await sweepMany(main, [salt], usdc);
    expect(swept).toEqual([{ salt, forwarder: predicted, token: usdc, amount: 5_000_000n }]);
    expect(await hasCode(main.chain, predicted)).toBe(true);
  });

  test('a clone deployed on the first sweep is swept again later, without a second deployment', async () => {
    const salt = nextSalt();
    const deposit = await addressOf(main, salt);
    await main.chain.transfer(usdc, PAYER, deposit, 1_000_000n);
    const before = await balanceOf(usdc, collector());
    const first = await sweepMany(main, [salt], usdc);
    const code = await main.chain.publicClient.getCode({ address: deposit });

    await main.chain.transfer(usdc, PAYER, deposit, 2_500_000n);
    const second = await sweepMany(main, [salt], usdc);

    expect(first.swept.map((e) => e.amount)).toEqual([1_000_000n]);
    expect(second.swept).toEqual([{ salt, forwarder: deposit, token: usdc, amount: 2_500_000n }]);
    expect(await main.chain.publicClient.getCode({ address: deposit })).toBe(code);
    expect(second.gasUsed).toBeLessThan(first.gasUsed);
    expect(await balanceOf(usdc, collector())).toBe(before + 3_500_000n);
    expect(await balanceOf(usdc, deposit)).toBe(0n);
  });

  test('two deposits in one batch: one Swept each, with its own amount; an empty address gives amount 0', async () => {
    const [a, b, empty] = [nextSalt(), nextSalt(), nextSalt()];
    await main.chain.transfer(usdc, PAYER, await addressOf(main, a), 7_000_000n);
    await main.chain.transfer(usdc, PAYER, await addressOf(main, b), 3_000_001n);
    const before = await balanceOf(usdc, collector());

    const { swept } = await sweepMany(main, [a, b, empty], usdc);

    expect(swept.map((e) => [e.salt, e.forwarder, e.amount])).toEqual([
      [a, await addressOf(main, a), 7_000_000n],
      [b, await addressOf(main, b), 3_000_001n],
      [empty, await addressOf(main, empty), 0n],
    ]);
    expect(await balanceOf(usdc, collector())).toBe(before + 10_000_001n);
  });

  test.each(['noReturn', 'falseReturn'] as const)('sweeps a token whose transfer returns %s', async (kind) => {
    const token = getAddress(await main.chain.deployToken({ symbol: 'USDT', decimals: 6, kind }));
    const salt = nextSalt();
    const deposit = await addressOf(main, salt);
    await main.chain.mint(token, deposit, 42_000_000n);
    // The token really answers as its namesake does: nothing, or false on a transfer that succeeds.
    await main.chain.mint(token, main.chain.account(PAYER).address, 1n);
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [collector(), 1n] });
    const answer = await main.chain.publicClient.call({ account: main.chain.account(PAYER), to: token, data });
    expect(answer.data ?? '0x').toBe(kind === 'noReturn' ? '0x' : encodeAbiParameters([{ type: 'bool' }], [false]));

    const { swept } = await sweepMany(main, [salt], token);

    expect(swept).toEqual([{ salt, forwarder: deposit, token, amount: 42_000_000n }]);
    expect(await balanceOf(token, deposit)).toBe(0n);
    expect(await balanceOf(token, collector())).toBe(42_000_000n);
  });

  test('sweeps the native coin with token address(0), before and after the clone exists', async () => {
    const salt = nextSalt();
    const deposit = await addressOf(main, salt);
    const payer = main.chain.walletClientFor(PAYER);
    await main.chain.publicClient.waitForTransactionReceipt({
      hash: await payer.sendTransaction({ to: deposit, value: parseEther('1.5') }),
    });
    const before = await main.chain.publicClient.getBalance({ address: collector() });

    const first = await sweepMany(main, [salt], zeroAddress);
    // A deployed clone still takes plain payments: the proxy forwards them to the forwarder's receive().
    await main.chain.publicClient.waitForTransactionReceipt({
      hash: await payer.sendTransaction({ to: deposit, value: parseEther('0.25') }),
    });
    const second = await sweepMany(main, [salt], zeroAddress);

    expect(first.swept).toEqual([{ salt, forwarder: deposit, token: zeroAddress, amount: parseEther('1.5') }]);
    expect(second.swept.map((e) => e.amount)).toEqual([parseEther('0.25')]);
    // The collector pays no gas here (the sweeper does), so its balance grows by exactly what was swept.
    expect(await main.chain.publicClient.getBalance({ address: collector() })).toBe(before + parseEther('1.75'));
    expect(await main.chain.publicClient.getBalance({ address: deposit })).toBe(0n);
  });

  test('only sweepers sweep, only the owner names them, and ownership moves in two steps', async () => {
    const salt = nextSalt();
    await main.chain.transfer(usdc, PAYER, await addressOf(main, salt), 1_000_000n);
    const stranger = main.chain.account(STRANGER);
    const simulateSweep = (account: number) =>
      main.chain.publicClient.simulateContract({
        account: main.chain.account(account),
        address: main.factory,
        abi: depositFactory.abi,
        functionName: 'sweepMany',
        args: [[salt], usdc],
      });
    const setSweeper = (account: number, allowed: boolean) =>
      main.chain
        .walletClientFor(account)
        .writeContract({ address: main.factory, abi: depositFactory.abi, functionName: 'setSweeper', args: [stranger.address, allowed] });

    await expect(simulateSweep(STRANGER)).rejects.toThrow(/NotSweeper/);
    await expect(
      main.chain.publicClient.simulateContract({
        account: stranger,
        address: main.factory,
        abi: depositFactory.abi,
        functionName: 'setSweeper',
        args: [stranger.address, true],
      }),
    ).rejects.toThrow(/NotOwner/);

    await main.chain.publicClient.waitForTransactionReceipt({ hash: await setSweeper(OWNER, true) });
    await expect(simulateSweep(STRANGER)).resolves.toBeDefined();
    await main.chain.publicClient.waitForTransactionReceipt({ hash: await setSweeper(OWNER, false) });
    await expect(simulateSweep(STRANGER)).rejects.toThrow(/NotSweeper/);

    const write = (account: number, functionName: 'transferOwnership' | 'acceptOwnership', args: readonly [Address] | readonly []) =>
      main.chain.walletClientFor(account).writeContract({ address: main.factory, abi: depositFactory.abi, functionName, args } as never);
    await main.chain.publicClient.waitForTransactionReceipt({ hash: await write(OWNER, 'transferOwnership', [stranger.address]) });
    expect(await main.chain.publicClient.readContract({ address: main.factory, abi: depositFactory.abi, functionName: 'owner' })).toBe(
      main.params.owner,
    );
    await expect(
      main.chain.publicClient.simulateContract({
        account: main.chain.account(SWEEPER),
        address: main.factory,
        abi: depositFactory.abi,
        functionName: 'acceptOwnership',
      }),
    ).rejects.toThrow(/NotPendingOwner/);
    await main.chain.publicClient.waitForTransactionReceipt({ hash: await write(STRANGER, 'acceptOwnership', []) });
    expect(await main.chain.publicClient.readContract({ address: main.factory, abi: depositFactory.abi, functionName: 'owner' })).toBe(
      getAddress(stranger.address),
    );
    await main.chain.publicClient.waitForTransactionReceipt({ hash: await write(STRANGER, 'transferOwnership', [main.params.owner]) });
    await main.chain.publicClient.waitForTransactionReceipt({ hash: await write(OWNER, 'acceptOwnership', []) });
  });

  test('funds go only to the collector: a clone obeys only the factory that made it', async () => {
    const salt = nextSalt();
    const deposit = await addressOf(main, salt);
    await main.chain.transfer(usdc, PAYER, deposit, 9_000_000n);
    await sweepMany(main, [salt], usdc);
    await main.chain.transfer(usdc, PAYER, deposit, 4_000_000n);
    const thief = main.chain.account(STRANGER);

    // Called directly, with the right salt and any destination.
    await expect(
      main.chain.publicClient.simulateContract({
        account: thief,
        address: deposit,
        abi: depositForwarder.abi,
        functionName: 'sweep',
        args: [salt, usdc, thief.address],
      }),
    ).rejects.toThrow(/NotFactory/);

    // Through a factory of one's own over the same forwarder: its clones live at other addresses.
    const rogueHash = await main.chain.walletClientFor(STRANGER).deployContract({
      abi: depositFactory.abi,
      bytecode: depositFactory.bytecode,
      args: [main.forwarder, thief.address, thief.address, thief.address],
    });
    const rogue = (await main.chain.publicClient.waitForTransactionReceipt({ hash: rogueHash })).contractAddress!;
    expect(
      await main.chain.publicClient.readContract({ address: rogue, abi: depositFactory.abi, functionName: 'addressOf', args: [salt] }),
    ).not.toBe(deposit);
    const rogueSweep = await main.chain
      .walletClientFor(STRANGER)
      .writeContract({ address: rogue, abi: depositFactory.abi, functionName: 'sweepMany', args: [[salt], usdc] });
    await main.chain.publicClient.waitForTransactionReceipt({ hash: rogueSweep });

    expect(await balanceOf(usdc, thief.address)).toBe(0n);
    expect(await balanceOf(usdc, deposit)).toBe(4_000_000n);
    const before = await balanceOf(usdc, collector());
    await sweepMany(main, [salt], usdc);
    expect(await balanceOf(usdc, collector())).toBe(before + 4_000_000n);
  });

  test('the factory refuses an implementation without code and zero addresses', async () => {
    const deploy = (implementation: Address, collectorAddress: Address) =>
      main.chain.walletClientFor(COLLECTOR).deployContract({
        abi: depositFactory.abi,
        bytecode: depositFactory.bytecode,
        args: [implementation, collectorAddress, main.params.owner, main.params.sweeper],
      });
    await expect(deploy(main.chain.account(STRANGER).address, collector())).rejects.toThrow(/reverted/);
    await expect(deploy(main.forwarder, zeroAddress)).rejects.toThrow(/reverted/);
  });
});

describe('a token that calls back into the factory during a sweep', () => {
  let setup: DepositContractsChain;

  beforeAll(async () => {
    setup = await startDepositContractsChain();
  });

  afterAll(async () => {
    await setup?.chain.stop();
  });

  test('is refused the nested sweep, which would count the collector’s growth twice', async () => {
    const { abi, bytecode } = await compileContract(REENTRANT_TOKEN, 'ReentrantToken');
    const { chain } = setup;
    const deployHash = await chain.walletClient.deployContract({ abi, bytecode, args: ['Hostile', 'HOST', 6] });
    const token = getAddress((await chain.publicClient.waitForTransactionReceipt({ hash: deployHash })).contractAddress!);
    const [outer, inner] = [nextSalt(), nextSalt()];
    await chain.mint(token, await addressOf(setup, outer), 5_000_000n);
    await chain.mint(token, await addressOf(setup, inner), 3_000_000n);
    const write = async (address: Address, request: Parameters<typeof chain.walletClient.writeContract>[0]) =>
      chain.publicClient.waitForTransactionReceipt({ hash: await chain.walletClientFor(OWNER).writeContract({ ...request, address }) });
    await write(setup.factory, { abi: depositFactory.abi, functionName: 'setSweeper', args: [token, true] } as never);
    await write(token, { abi, functionName: 'arm', args: [setup.factory, inner] } as never);

    const { swept } = await sweepMany(setup, [outer], token);

    expect(swept.map((event) => [event.salt, event.amount])).toEqual([[outer, 5_000_000n]]);
    const reentryError = await chain.publicClient.readContract({ address: token, abi, functionName: 'reentryError' });
    expect(reentryError).toBe(toFunctionSelector('Reentered()'));
    expect(
      await chain.publicClient.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [await addressOf(setup, inner)],
      }),
    ).toBe(3_000_000n);
  });
});
