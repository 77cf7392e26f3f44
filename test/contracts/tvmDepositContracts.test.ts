// The deposit contracts' real bytecode under the TVM's CREATE2 (test/support/tron/tvmRulesEvm.ts), with a token
// whose `transfer` returns false on success, as Tron USDT's does. The TVM build of the factory and forwarder
// (contracts/artifacts/tvm/) deploys each clone where the service's offline Tron formula put the deposit address
// and sweeps it; the EVM build, which predicts with EIP-1014's 0xff, cannot sweep anything there. The collector's
// withdraw judges a transfer by what left it, so the returns-false token moves.
import { fileURLToPath } from 'node:url';
import {
  decodeErrorResult,
  decodeFunctionResult,
  encodeDeployData,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  keccak256,
  parseEventLogs,
  toHex,
  zeroAddress,
  type Abi,
  type Address,
  type Hex,
  type Log,
} from 'viem';
import { beforeAll, describe, expect, test } from 'vitest';
import * as depositCollector from '../../contracts/artifacts/depositCollector';
import * as evmDepositFactory from '../../contracts/artifacts/depositFactory';
import * as evmDepositForwarder from '../../contracts/artifacts/depositForwarder';
import * as tvmDepositFactory from '../../contracts/artifacts/tvm/depositFactory';
import * as tvmDepositForwarder from '../../contracts/artifacts/tvm/depositForwarder';
import { depositSalt } from '../../domain/addresses/depositSalt';
import { tronForwarderAddress } from '../../domain/addresses/depositForwarder';
import { tronAddressFromEvmHex, tronAddressToEvmHex } from '../../domain/addresses/tron';
import { compileContract, type SolidityUnit } from '../../toolchain/solidity/compileSolidity';
import { createTvmRulesEvm, type TvmCallResult, type TvmRulesEvm } from '../support/tron/tvmRulesEvm';

const RETURNS_FALSE_TOKEN: SolidityUnit = {
  name: 'ReturnsFalseToken',
  files: [new URL('./ReturnsFalseToken.sol', import.meta.url), new URL('../../toolchain/localChain/TestToken.sol', import.meta.url)].map(
    (url) => fileURLToPath(url),
  ),
};

const DEPLOYER: Address = '0x00000000000000000000000000000000000de910';
const OWNER: Address = '0x0000000000000000000000000000000000000a11';
const SWEEPER: Address = '0x0000000000000000000000000000000000005eee';
const STRANGER: Address = '0x000000000000000000000000000000000000dead';
const PAYEE: Address = '0x000000000000000000000000000000000000b0b0';
/** No TokenMessengerV2 on Tron: the collector's burns have nowhere to go there, and withdraw is its way out. */
const NO_MESSENGER: Address = '0x0000000000000000000000000000000000000001';
const MINT_RECIPIENT: Hex = keccak256(toHex('treasury token account'));

interface Contracts {
  factory: Address;
  forwarder: Address;
}

let vm: TvmRulesEvm;
let token: { address: Address; abi: Abi };
let collector: Address;
let tvm: Contracts;
let evmBuild: Contracts;

type Build = { forwarder: { bytecode: string }; factory: { abi: typeof tvmDepositFactory.abi; bytecode: string } };

async function deployPair(build: Build): Promise<Contracts> {
  const forwarder = await vm.deploy(DEPLOYER, build.forwarder.bytecode as Hex);
  const factory = await vm.deploy(
    DEPLOYER,
    encodeDeployData({ abi: build.factory.abi, bytecode: build.factory.bytecode as Hex, args: [forwarder, collector, OWNER, SWEEPER] }),
  );
  return { factory, forwarder };
}

beforeAll(async () => {
  vm = await createTvmRulesEvm();
  const compiled = await compileContract(RETURNS_FALSE_TOKEN, 'ReturnsFalseToken');
  token = { address: await vm.deploy(DEPLOYER, compiled.bytecode), abi: compiled.abi };
  collector = await vm.deploy(
    DEPLOYER,
    encodeDeployData({
      abi: depositCollector.abi,
      bytecode: depositCollector.bytecode as Hex,
      args: [NO_MESSENGER, MINT_RECIPIENT, OWNER, SWEEPER],
    }),
  );
  tvm = await deployPair({ forwarder: tvmDepositForwarder, factory: tvmDepositFactory });
  evmBuild = await deployPair({ forwarder: evmDepositForwarder, factory: evmDepositFactory });
});

function succeeded(result: TvmCallResult): TvmCallResult {
  if (result.reverted !== undefined) throw new Error(`reverted: ${result.reverted}`);
  return result;
}

async function mint(to: Address, amount: bigint): Promise<void> {
  succeeded(await vm.call(DEPLOYER, token.address, encodeFunctionData({ abi: token.abi, functionName: 'mint', args: [to, amount] })));
}

async function balanceOf(owner: Address): Promise<bigint> {
  const result = succeeded(
    await vm.call(STRANGER, token.address, encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner] })),
  );
  return decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data: result.returnValue });
}

async function addressOf(contracts: Contracts, salt: Hex): Promise<Address> {
  const data = encodeFunctionData({ abi: tvmDepositFactory.abi, functionName: 'addressOf', args: [salt] });
  const result = succeeded(await vm.call(STRANGER, contracts.factory, data));
  return decodeFunctionResult({ abi: tvmDepositFactory.abi, functionName: 'addressOf', data: result.returnValue });
}

const sweepMany = (contracts: Contracts, salts: Hex[], as: Address = SWEEPER) =>
  vm.call(
    as,
    contracts.factory,
    encodeFunctionData({ abi: tvmDepositFactory.abi, functionName: 'sweepMany', args: [salts, token.address] }),
  );

const withdraw = (to: Address, amount: bigint) =>
  vm.call(OWNER, collector, encodeFunctionData({ abi: depositCollector.abi, functionName: 'withdraw', args: [token.address, to, amount] }));

function revertName(result: TvmCallResult, abi: Abi): string | undefined {
  if (result.reverted === undefined) return undefined;
  return decodeErrorResult({ abi, data: result.reverted }).errorName;
}

/** The deposit address the service hands out for `sessionId` on Tron, as a 20-byte VM address. */
function offlineTronAddress(contracts: Contracts, sessionId: string): Address {
  const address = tronForwarderAddress(
    { factory: tronAddressFromEvmHex(contracts.factory), implementation: tronAddressFromEvmHex(contracts.forwarder) },
    depositSalt(sessionId),
  );
  return getAddress(tronAddressToEvmHex(address));
}

describe('the token stand-in', () => {
  test('moves the tokens and returns false, as Tron USDT does', async () => {
    await mint(STRANGER, 10n);
    const result = succeeded(
      await vm.call(STRANGER, token.address, encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [PAYEE, 10n] })),
    );
    expect(decodeFunctionResult({ abi: erc20Abi, functionName: 'transfer', data: result.returnValue })).toBe(false);
    expect(await balanceOf(PAYEE)).toBe(10n);
  });
});

describe('DepositFactory built for the TVM', () => {
  test('addressOf is the offline Tron deposit address', async () => {
    const sessionId = 'cs_01JTVMADDRESSOF000000000000';
    expect(await addressOf(tvm, depositSalt(sessionId))).toBe(offlineTronAddress(tvm, sessionId));
  });

  test('sweepMany deploys the clone at the offline Tron address and moves a returns-false token to the collector', async () => {
    const sessionIds = ['cs_01JTVMSWEEP0000000000000001', 'cs_01JTVMSWEEP0000000000000002'];
    const deposits = sessionIds.map((sessionId) => offlineTronAddress(tvm, sessionId));
    await mint(deposits[0]!, 1_500_000n);
    await mint(deposits[1]!, 2_000_000n);
    const before = await balanceOf(collector);

    const result = succeeded(await sweepMany(tvm, sessionIds.map(depositSalt)));

    const swept = parseEventLogs({ abi: tvmDepositFactory.abi, eventName: 'Swept', logs: result.logs as unknown as Log[] }).map(
      (log) => log.args,
    );
    expect(swept).toEqual([
      { salt: depositSalt(sessionIds[0]!), forwarder: deposits[0], token: token.address, amount: 1_500_000n },
      { salt: depositSalt(sessionIds[1]!), forwarder: deposits[1], token: token.address, amount: 2_000_000n },
    ]);
    expect(await balanceOf(collector)).toBe(before + 3_500_000n);
    for (const deposit of deposits) {
      expect(await balanceOf(deposit)).toBe(0n);
      expect(await vm.code(deposit)).toBe(`0x363d3d373d3d3d363d73${tvm.forwarder.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3`);
    }

    // A later deposit to the same address: the clone is there now, and its own check of its factory passes.
    await mint(deposits[0]!, 700_000n);
    succeeded(await sweepMany(tvm, [depositSalt(sessionIds[0]!)]));
    expect(await balanceOf(collector)).toBe(before + 4_200_000n);
  });

  test('a deployed clone still obeys only its factory', async () => {
    const salt = depositSalt('cs_01JTVMNOTFACTORY00000000000');
    succeeded(await sweepMany(tvm, [salt]));
    const clone = offlineTronAddress(tvm, 'cs_01JTVMNOTFACTORY00000000000');
    const direct = await vm.call(
      STRANGER,
      clone,
      encodeFunctionData({ abi: tvmDepositForwarder.abi, functionName: 'sweep', args: [salt, token.address, STRANGER] }),
    );
    expect(revertName(direct, tvmDepositForwarder.abi)).toBe('NotFactory');
  });
});

describe('DepositFactory built for the EVM, under the TVM', () => {
  test('predicts with 0xff, so its addressOf is not the Tron deposit address and every sweep of one reverts', async () => {
    const sessionId = 'cs_01JEVMBUILDONTVM0000000000';
    const deposit = offlineTronAddress(evmBuild, sessionId);
    expect(await addressOf(evmBuild, depositSalt(sessionId))).not.toBe(deposit);
    await mint(deposit, 1_000_000n);

    const result = await sweepMany(evmBuild, [depositSalt(sessionId)]);

    expect(result.reverted).toBeDefined();
    expect(await balanceOf(deposit)).toBe(1_000_000n);
  });
});

describe('DepositCollector.withdraw', () => {
  test('moves a token whose transfer returns false, judged by what left the collector', async () => {
    await mint(collector, 5_000_000n);
    const held = await balanceOf(collector);
    const payee = getAddress('0x000000000000000000000000000000000000c0de');

    const result = succeeded(await withdraw(payee, 5_000_000n));

    expect(await balanceOf(payee)).toBe(5_000_000n);
    expect(await balanceOf(collector)).toBe(held - 5_000_000n);
    const [withdrawn] = parseEventLogs({ abi: depositCollector.abi, eventName: 'Withdrawn', logs: result.logs as unknown as Log[] });
    expect(withdrawn?.args).toEqual({ token: token.address, to: payee, amount: 5_000_000n });
  });

  test('refuses a transfer that moved nothing', async () => {
    const held = await balanceOf(collector);
    expect(revertName(await withdraw(PAYEE, held + 1n), depositCollector.abi)).toBe('TransferFailed');
    expect(revertName(await withdraw(zeroAddress, 1n), depositCollector.abi)).toBe('ZeroAddress');
  });
});

describe('DepositCollector.rebalance', () => {
  const rebalance = (amount: bigint, as: Address = SWEEPER) =>
    vm.call(as, collector, encodeFunctionData({ abi: depositCollector.abi, functionName: 'rebalance', args: [token.address, amount] }));
  const rebalanceTo = getAddress('0x000000000000000000000000000000000000ba1a');

  test('moves Tron USDT (transfer returns false) only to the owner-set rebalance address, judged by what left', async () => {
    await mint(collector, 4_000_000n);
    expect(revertName(await rebalance(1n), depositCollector.abi)).toBe('NoRebalanceAddress');
    succeeded(
      await vm.call(
        OWNER,
        collector,
        encodeFunctionData({ abi: depositCollector.abi, functionName: 'setRebalanceAddress', args: [rebalanceTo] }),
      ),
    );
    const held = await balanceOf(collector);
    expect(revertName(await rebalance(1n, STRANGER), depositCollector.abi)).toBe('NotSweeper');
    expect(revertName(await rebalance(held + 1n), depositCollector.abi)).toBe('TransferFailed');

    const result = succeeded(await rebalance(4_000_000n));

    expect(await balanceOf(rebalanceTo)).toBe(4_000_000n);
    expect(await balanceOf(collector)).toBe(held - 4_000_000n);
    const [rebalanced] = parseEventLogs({ abi: depositCollector.abi, eventName: 'Rebalanced', logs: result.logs as unknown as Log[] });
    expect(rebalanced?.args).toEqual({ token: token.address, to: rebalanceTo, amount: 4_000_000n });
  });

  test('swaps revert where no router is set (Tron has no Uniswap route)', async () => {
    const swap = encodeFunctionData({
      abi: depositCollector.abi,
      functionName: 'swap',
      args: [token.address, 100, 1_000_000n, 1_000_000n],
    });
    expect(revertName(await vm.call(SWEEPER, collector, swap), depositCollector.abi)).toBe('SwapNotConfigured');
  });
});
