// The Tron wallet client's simulation of a contract call (activities/http/tronWalletApi.ts simulateCall), the Tron
// sweeps' failure isolation reads it: java-tron's triggerconstantcontract answers, as recorded in test/fixtures/tron/,
// read as success, a revert with its reason, or no verdict at all (the node did not run the call, or did not answer).
import { randomBytes } from 'node:crypto';
import { encodeAbiParameters, encodeErrorResult, parseAbi, toFunctionSelector } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTronWalletApi, TronApiError } from '../../../activities/http/tronWalletApi';
import { tronForwarderAddress } from '../../../domain/addresses/depositForwarder';
import { tronAddressFromEvmHex, tronAddressToEvmHex } from '../../../domain/addresses/tron';
import { recorded } from '../../fixtures/tron';
import { startTronWalletNode, type TronWalletNode } from '../../support/tron/tronWalletNode';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const tronAddress = () => tronAddressFromEvmHex(`0x${randomBytes(20).toString('hex')}`);
const FACTORY = { factory: tronAddress(), implementation: tronAddress(), collector: tronAddress() };
const RELAYER = tronAddress();
const SWEEP_MANY = 'sweepMany(bytes32[],address)';
const TRANSFER_FAILED = toFunctionSelector('TransferFailed(address)');

let node: TronWalletNode;
const api = () => createTronWalletApi({ fullNodeUrl: node.url, timeoutMs: 500 });
const sweepParameter = (salts: `0x${string}`[]) =>
  encodeAbiParameters([{ type: 'bytes32[]' }, { type: 'address' }], [salts, tronAddressToEvmHex(USDT)]).slice(2);
const simulate = (parameter = sweepParameter([])) => api().simulateCall(RELAYER, FACTORY.factory, SWEEP_MANY, parameter);

beforeAll(async () => {
  node = await startTronWalletNode();
  node.deployFactory(FACTORY);
});
afterAll(() => node?.close());
beforeEach(() => node.setPolicy(() => 'answer'));

describe('simulateCall', () => {
  it('reads a call that ran without reverting as success', async () => {
    node.setPolicy(() => ({ body: recorded.http.constantBalanceOf }));
    expect(await simulate()).toBeUndefined();
  });

  it("reads a revert as its reason: the node's message and the revert data, a custom error as hex, Error(string) as its text", async () => {
    node.setPolicy(() => ({ body: recorded.http.constantRevert }));
    expect(await simulate()).toBe(`REVERT opcode executed: 0x${recorded.http.constantRevert.constant_result[0]}`);

    const errorString = encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['not the sweeper'] });
    node.setPolicy(() => ({ body: { ...recorded.http.constantRevert, constant_result: [errorString.slice(2)] } }));
    expect(await simulate()).toBe('REVERT opcode executed: not the sweeper');

    // A revert without data (a bare require) still reverts: the FAILED status alone says so.
    node.setPolicy(() => ({ body: { ...recorded.http.constantRevert, result: { result: true }, constant_result: [''] } }));
    expect(await simulate()).toBe('FAILED');
  });

  it('throws, no verdict on the call, when the node did not run it or did not answer', async () => {
    const validateError = {
      result: {
        result: false,
        code: 'CONTRACT_VALIDATE_ERROR',
        message: Buffer.from('No contract or not a smart contract').toString('hex'),
      },
    };
    node.setPolicy(() => ({ body: validateError }));
    await expect(simulate()).rejects.toThrow(/CONTRACT_VALIDATE_ERROR: No contract or not a smart contract/);
    node.setPolicy(() => ({ body: { Error: 'class java.lang.NullPointerException : null' } }));
    await expect(simulate()).rejects.toBeInstanceOf(TronApiError);
    node.setPolicy(() => ({ status: 503 }));
    await expect(simulate()).rejects.toMatchObject({ kind: 'unavailable' });
    node.setPolicy(() => 'hang');
    await expect(simulate()).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it("asks the stand-in's factory the sweepMany the sweep would send: a blacklisted forwarder holding the token reverts it", async () => {
    const [held, blocked] = [`0x${randomBytes(32).toString('hex')}`, `0x${randomBytes(32).toString('hex')}`] as const;
    for (const salt of [held, blocked]) node.setBalance(USDT, tronForwarderAddress(FACTORY, salt), 1_000_000n);
    expect(await simulate(sweepParameter([held, blocked]))).toBeUndefined();
    node.blacklist(USDT, tronForwarderAddress(FACTORY, blocked), true);
    expect(await simulate(sweepParameter([held, blocked]))).toBe(
      `REVERT opcode executed: ${TRANSFER_FAILED}${tronAddressToEvmHex(USDT).slice(2).toLowerCase().padStart(64, '0')}`,
    );
    expect(await simulate(sweepParameter([held]))).toBeUndefined();
    // Untouched: a constant call moves nothing.
    expect(node.balanceOf(USDT, tronForwarderAddress(FACTORY, held))).toBe(1_000_000n);
  });
});

describe('energy and resources', () => {
  it('reads the recorded getchainparameters: the energy and bandwidth prices, and the dynamic-energy ceiling only when it is on', async () => {
    node.setPolicy(() => ({ body: recorded.http.chainParameters }));
    expect(await api().chainPrices()).toEqual({ energyFeeSun: 210n, bandwidthFeeSun: 1_000n, dynamicEnergyMaxFactor: 34_000n });

    // A parameter at 0 has no value: dynamic energy off leaves the ceiling out.
    const off = recorded.http.chainParameters.chainParameter.map((p) => (p.key === 'getAllowDynamicEnergy' ? { key: p.key } : p));
    node.setPolicy(() => ({ body: { chainParameter: off } }));
    expect((await api().chainPrices()).dynamicEnergyMaxFactor).toBe(0n);

    const noPrice = recorded.http.chainParameters.chainParameter.filter((p) => p.key !== 'getEnergyFee');
    node.setPolicy(() => ({ body: { chainParameter: noPrice } }));
    await expect(api().chainPrices()).rejects.toMatchObject({ kind: 'malformed', message: expect.stringMatching(/no getEnergyFee/) });
  });

  it('reads the recorded getaccountresource of an account without energy as none, its free bandwidth as available', async () => {
    node.setPolicy((path) => ({ body: path === '/wallet/getaccount' ? {} : recorded.http.accountResource }));
    expect(await api().accountResources(RELAYER)).toEqual({
      trxBalanceSun: 0n,
      stakedForEnergySun: 0n,
      energyLimit: 0n,
      energyUsed: 0n,
      bandwidthAvailable: 600n - 441n,
    });
  });

  it('reads energy staked or delegated to an account, what of it is used, and the TRX it staked for energy', async () => {
    const owner = tronAddress();
    node.setTrx(owner, 7_000_000n);
    node.setEnergy(owner, { limit: 65_000n, stakedSun: 1_000_000_000n });
    expect(await api().accountResources(owner)).toEqual({
      trxBalanceSun: 7_000_000n,
      stakedForEnergySun: 1_000_000_000n,
      energyLimit: 65_000n,
      energyUsed: 0n,
      bandwidthAvailable: 600n,
    });
  });

  it("answers a constant call's energy_used, and no estimate for a call that reverts", async () => {
    node.setPolicy(() => ({ body: recorded.http.constantBalanceOf }));
    expect(await api().callEnergy(RELAYER, FACTORY.factory, SWEEP_MANY, sweepParameter([]))).toBe(935n);
    node.setPolicy(() => ({ body: recorded.http.constantRevert }));
    await expect(api().callEnergy(RELAYER, FACTORY.factory, SWEEP_MANY, sweepParameter([]))).rejects.toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/no energy estimate: REVERT opcode executed/),
    });
  });

  it('reads the energy and bandwidth a landed call paid from its receipt, as the recorded TransactionInfo carries them', async () => {
    const { id } = recorded.http.infoSuccess;
    node.setPolicy(() => ({ body: recorded.http.infoSuccess }));
    expect(await api().transactionInfo('latest', id)).toMatchObject({
      fee: 13_845_500n,
      energy: { total: 130_005n, fromResources: 0n, burnedSun: 13_500_500n },
      bandwidthBurnedSun: 345_000n,
    });
  });
});
