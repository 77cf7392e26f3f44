// The stack `npm start` and `npm run demo` run (bin/devStack.ts), started in process on its own Temporal dev server:
// its local EVM chain carries the deposit contracts at the addresses computed offline, with the local relayer as
// sweeper and the signer holding its key, the TokenMessengerV2 stand-in, and the loopback attestation stand-in
// answering as Iris does.
import { pino } from 'pino';
import { isAddressEqual, zeroAddress, zeroHash, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAttestationClient } from '../../signer/cctp/attestationClient';
import { loadConfig } from '../../config/env';
import * as depositCollector from '../../contracts/artifacts/depositCollector';
import * as depositFactory from '../../contracts/artifacts/depositFactory';
import { SOLANA_CCTP_DOMAIN } from '../../domain/cctp/domains';
import { quoterV2Abi } from '../../domain/swaps/uniswapV3Abi';
import { depositCollectorAddress, depositContractAddresses } from '../../domain/chains/depositContracts';
import { solanaAddressBytes32 } from '../../domain/cctp/depositForBurn';
import { associatedUsdcAccount } from '../../domain/addresses/solanaTokenAccount';
import { startDevStack, type DevStack } from '../../bin/devStack';
import { devDepositContractParams } from '../../toolchain/localChain/devDepositContracts';
import { freePort } from '../../toolchain/ports';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;
let stack: DevStack;

beforeAll(async () => {
  db = await createTestDatabase();
  const config = loadConfig(
    {
      HOST: '127.0.0.1',
      PORT: '0',
      INTERNAL_PORT: '0',
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
      LOCAL_CHAIN_PORT: '0',
      LOCAL_SOLANA_PORT: '0',
      LOG_LEVEL: 'silent',
    },
    'dev',
  );
  // What a persistent database keeps from an earlier run's chain: the relayer's nonces there.
  const { relayer } = devDepositContractParams({ tokenMessenger: zeroAddress, mintRecipient: zeroHash });
  await db.sql`insert into evm_nonces (chain, mode, sender, next_nonce) values ('base', 'test', ${relayer.address}, 7)`;
  stack = await startDevStack({
    config,
    chainEnv: {},
    startTemporal: true,
    persistent: false,
    keyLabel: 'devStack test',
    progress: () => undefined,
    logger: pino({ level: 'silent' }),
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await db?.drop();
}, 60_000);

describe('the dev stack', () => {
  it('deploys the deposit contracts at their offline addresses, with the relayer whose key the signer holds as sweeper', async () => {
    const chain = stack.devChain!;
    const { collectorParams, params, relayer } = devDepositContractParams({
      tokenMessenger: chain.cctp.tokenMessenger,
      mintRecipient: solanaAddressBytes32(await associatedUsdcAccount(stack.localSolana!.treasury.address, stack.localSolana!.usdcMint)),
    });
    const offline = depositContractAddresses(params);
    expect(chain.depositContracts).toMatchObject({ ...offline, collector: depositCollectorAddress(collectorParams) });
    const client = chain.local.publicClient;
    for (const address of [offline.factory, offline.forwarder, params.collector])
      expect((await client.getCode({ address }))?.length ?? 0).toBeGreaterThan(2);
    const collector = await client.readContract({ address: offline.factory, abi: depositFactory.abi, functionName: 'collector' });
    expect(isAddressEqual(collector, params.collector)).toBe(true);
    expect(
      await client.readContract({ address: offline.factory, abi: depositFactory.abi, functionName: 'isSweeper', args: [relayer.address] }),
    ).toBe(true);
    expect(privateKeyToAccount(stack.signerEnv.EVM_RELAYER_KEY_TEST as Address).address).toBe(relayer.address);
    expect(await client.getBalance({ address: relayer.address })).toBeGreaterThan(0n);
    // The collector burns to the local treasury's USDC account, with the same relayer as sweeper.
    expect(await client.readContract({ address: params.collector, abi: depositCollector.abi, functionName: 'mintRecipient' })).toBe(
      collectorParams.mintRecipient,
    );
    expect(
      await client.readContract({
        address: params.collector,
        abi: depositCollector.abi,
        functionName: 'isSweeper',
        args: [relayer.address],
      }),
    ).toBe(true);
  });

  it("forgets the relayer's nonces from an earlier run's chain: the fresh chain counts from 0", async () => {
    expect(await db.sql`select next_nonce from evm_nonces where chain = 'base' and mode = 'test'`).toEqual([]);
  });

  it("schedules the inventory path: the local chain's forwarder sweep and its CCTP transfers", async () => {
    const scheduled = {
      sweep_evm_base_usdc_test: 'sweepEvmDeposits',
      transfer_usdc_base_test: 'transferUsdc',
      swap_usdt_base_test: 'swapUsdt',
    };
    for (const [scheduleId, workflowType] of Object.entries(scheduled)) {
      const { action } = await stack.temporal.schedule.getHandle(scheduleId).describe();
      expect(action).toMatchObject({ type: 'startWorkflow', workflowType });
    }
  });

  it('deploys the TokenMessengerV2 stand-in and runs the attestation stand-in, answering as Iris does', async () => {
    const chain = stack.devChain!;
    for (const address of [chain.cctp.tokenMessenger, chain.cctp.messageTransmitter])
      expect((await chain.local.publicClient.getCode({ address }))?.length ?? 0).toBeGreaterThan(2);
    expect(chain.cctp.localDomain).toBe(6);
    const iris = createAttestationClient({ baseUrl: stack.attestationUrl!, timeoutMs: 5_000 });
    expect((await iris.fees(chain.cctp.localDomain, SOLANA_CCTP_DOMAIN)).length).toBeGreaterThan(0);
    expect(await iris.messages(chain.cctp.localDomain, `0x${'ab'.repeat(32)}`)).toEqual({ state: 'not-seen' });
  });

  it('deploys Uniswap V3 with a USDT/USDC pool at 1:1 and sets the collector to swap its USDT there', async () => {
    const chain = stack.devChain!;
    const { collector } = chain.depositContracts;
    const read = (functionName: 'swapRouter' | 'swapTokenOut' | 'maxSwapDeviationBps') =>
      chain.local.publicClient.readContract({ address: collector, abi: depositCollector.abi, functionName });
    expect([await read('swapRouter'), await read('swapTokenOut'), await read('maxSwapDeviationBps')]).toEqual([
      chain.swapContracts.router,
      chain.usdc,
      50,
    ]);
    const { result } = await chain.local.publicClient.simulateContract({
      address: chain.swapContracts.quoter,
      abi: quoterV2Abi,
      functionName: 'quoteExactInputSingle',
      args: [{ tokenIn: chain.usdt, tokenOut: chain.usdc, amountIn: 100_000_000n, fee: 100, sqrtPriceLimitX96: 0n }],
    });
    expect(result[0]).toBeGreaterThan(99_980_000n);
    expect(result[0]).toBeLessThan(100_000_000n);
  });
});
