// `npm run deploy-contracts` as operators run it: a child process against a local Hardhat node.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { address as solanaAddress } from '@solana/kit';
import * as depositFactory from '../../contracts/artifacts/depositFactory';
import { solanaAddressBytes32 } from '../../domain/cctp/depositForBurn';
import { TOKEN_MESSENGER_V2 } from '../../domain/cctp/domains';
import { depositCollectorAddress, depositContractAddresses } from '../../domain/chains/depositContracts';
import { projectRoot } from '../../toolchain/paths';
import { createLocalChain, type LocalChain } from '../../toolchain/localChain/localChain';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'bin/deployContracts.ts', ...args],
      { cwd: projectRoot, env: { PATH: process.env.PATH ?? '', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run deploy-contracts', () => {
  let chain: LocalChain;
  let dir: string;
  let keyFile: string;
  let roles: string[];
  let params: { collector: `0x${string}`; owner: `0x${string}`; sweeper: `0x${string}` };

  beforeAll(async () => {
    chain = await createLocalChain();
    dir = mkdtempSync(join(tmpdir(), 'deploy-contracts-'));
    keyFile = join(dir, 'deployer.key');
    // Hardhat's account 9 pays; it holds no role in the factory.
    writeFileSync(keyFile, `${toHex(chain.account(9).getHdKey().privateKey!)}\n`, { mode: 0o600 });
    params = { collector: chain.account(4).address, owner: chain.account(1).address, sweeper: chain.account(2).address };
    roles = ['--collector', params.collector, '--owner', params.owner, '--sweeper', params.sweeper];
  });

  afterAll(async () => {
    await chain?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('addresses prints the variables to set, computed offline', async () => {
    const { forwarder, factory } = depositContractAddresses(params);
    const result = await run(['addresses', '--mode', 'live', ...roles]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(`EVM_DEPOSIT_FACTORY_LIVE=${factory}\nEVM_DEPOSIT_FORWARDER_LIVE=${forwarder}\n`);
  });

  test('deploy puts the contracts at those addresses, and a second run sends nothing', async () => {
    const { forwarder, factory } = depositContractAddresses(params);
    const env = { CHAIN_ID_BASE_TESTNET: String(chain.chainId) };
    const args = ['deploy', '--chain', 'base', '--mode', 'test', ...roles, '--key-file', keyFile, '--rpc-url', chain.rpcUrl];

    const first = await run(args, env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`DepositForwarder +${forwarder} deployed \\(0x[0-9a-f]{64}\\)`));
    expect(first.stdout).toMatch(new RegExp(`DepositFactory +${factory} deployed`));
    expect(first.stdout).toContain(`EVM_DEPOSIT_FACTORY_TEST=${factory}\nEVM_DEPOSIT_FORWARDER_TEST=${forwarder}\n`);
    expect(await chain.publicClient.getCode({ address: factory })).not.toBe(undefined);

    const blocks = await chain.blockNumber();
    const second = await run(args, env);
    expect(second.code).toBe(0);
    expect(second.stdout.match(/ present$/gm)).toHaveLength(3);
    expect(await chain.blockNumber()).toBe(blocks);
  });

  test('refuses an endpoint on another chain than the one named, and a key file others can read', async () => {
    const args = ['deploy', '--chain', 'base', '--mode', 'test', ...roles, '--rpc-url', chain.rpcUrl];
    const wrongChain = await run([...args, '--key-file', keyFile]);
    expect(wrongChain.code).toBe(2);
    expect(wrongChain.stderr).toContain(
      `is chain ${chain.chainId}, not base testnet (84532); set CHAIN_ID_BASE_TESTNET if that chain is meant`,
    );

    const openKey = join(dir, 'open.key');
    writeFileSync(openKey, '0x' + '11'.repeat(32), { mode: 0o644 });
    const readable = await run([...args, '--key-file', openKey], { CHAIN_ID_BASE_TESTNET: String(chain.chainId) });
    expect(readable.code).toBe(2);
    expect(readable.stderr).toContain('is readable by others; chmod 600 it');
    expect(readable.stderr).not.toContain('11'.repeat(32));
  });

  describe('with --treasury-usdc, a DepositCollector burning to the treasury is the collector', () => {
    const treasuryUsdc = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
    const collectorParams = (tokenMessenger: `0x${string}`) => ({
      tokenMessenger,
      mintRecipient: solanaAddressBytes32(solanaAddress(treasuryUsdc)),
      owner: params.owner,
      sweeper: params.sweeper,
    });
    const withTreasury = () => ['--treasury-usdc', treasuryUsdc, '--owner', params.owner, '--sweeper', params.sweeper];

    test("addresses: Circle's TokenMessengerV2 of the mode's network unless told otherwise", async () => {
      const collector = depositCollectorAddress(collectorParams(TOKEN_MESSENGER_V2.mainnet));
      const { forwarder, factory } = depositContractAddresses({ ...params, collector });
      const result = await run(['addresses', '--mode', 'live', ...withTreasury()]);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toBe(
        `EVM_DEPOSIT_FACTORY_LIVE=${factory}\nEVM_DEPOSIT_FORWARDER_LIVE=${forwarder}\nEVM_DEPOSIT_COLLECTOR_LIVE=${collector}\n`,
      );
    });

    test('deploy puts the collector first, then the factory over it', async () => {
      const messenger = chain.account(7).address;
      const collector = depositCollectorAddress(collectorParams(messenger));
      const { factory } = depositContractAddresses({ ...params, collector });
      const result = await run(
        [
          'deploy',
          '--chain',
          'base',
          '--mode',
          'test',
          ...withTreasury(),
          '--token-messenger',
          messenger,
          '--key-file',
          keyFile,
          '--rpc-url',
          chain.rpcUrl,
        ],
        { CHAIN_ID_BASE_TESTNET: String(chain.chainId) },
      );
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(new RegExp(`DepositCollector +${collector} deployed[^]*DepositFactory +${factory} deployed`));
      expect(result.stdout).toContain(`EVM_DEPOSIT_COLLECTOR_TEST=${collector}\n`);
      expect(await chain.publicClient.readContract({ address: factory, abi: depositFactory.abi, functionName: 'collector' })).toBe(
        collector,
      );
    });

    test('refuses both collectors at once, neither, and a messenger without a treasury', async () => {
      const both = await run(['addresses', '--mode', 'live', ...withTreasury(), '--collector', params.collector]);
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('--collector: give exactly one of --treasury-usdc and --collector');
      const neither = await run(['addresses', '--mode', 'live', '--owner', params.owner, '--sweeper', params.sweeper]);
      expect(neither.stderr).toContain('give exactly one of --treasury-usdc and --collector');
      const messengerAlone = await run(['addresses', '--mode', 'live', ...roles, '--token-messenger', params.owner]);
      expect(messengerAlone.stderr).toContain('--token-messenger: only with --treasury-usdc');
      const notSolana = await run([
        'addresses',
        '--mode',
        'live',
        '--treasury-usdc',
        '0xabc',
        '--owner',
        params.owner,
        '--sweeper',
        params.sweeper,
      ]);
      expect(notSolana.stderr).toContain('--treasury-usdc: is not a Solana address (base58)');
    });
  });
});
