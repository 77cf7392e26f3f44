// A local EVM chain with viem clients: a Hardhat node, test tokens, funded accounts, mining, snapshots and reverts.
// The EVM indexer tests use it, and so do `npm start` and `npm run demo` (devChain.ts).
import { fileURLToPath } from 'node:url';
import { mnemonicToSeed } from '@scure/bip39';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  http,
  isAddressEqual,
  parseAbi,
  parseEventLogs,
} from 'viem';
import type { Address, Chain, Hash, HDAccount, Hex, PublicClient, TestClient, Transport, WalletClient } from 'viem';
import { HDKey, hdKeyToAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';
import { compileSolidity, type SolidityUnit } from '../solidity/compileSolidity';
import { startHardhatNode, type HardhatNodeOptions } from './hardhatNode';

/** Hardhat's built-in dev mnemonic; the node funds its first 20 accounts (m/44'/60'/0'/0/i) with 10 000 ETH each. */
export const HARDHAT_MNEMONIC = 'test test test test test test test test test test test junk';
export const HARDHAT_ACCOUNT_COUNT = 20;

/** The token's `Transfer` log of a mined transaction. */
export interface TransferReceipt {
  hash: Hash;
  blockNumber: bigint;
  blockHash: Hash;
  logIndex: number;
}

export interface LocalChain {
  rpcUrl: string;
  chainId: number;
  chain: Chain;
  publicClient: PublicClient<Transport, Chain>;
  testClient: TestClient<'hardhat', Transport, Chain>;
  /** Signs as account 0, the deployer and minter. */
  walletClient: WalletClient<Transport, Chain, HDAccount>;
  account(index: number): HDAccount;
  walletClientFor(accountIndex: number): WalletClient<Transport, Chain, HDAccount>;
  /** `kind` picks a test token whose `transfer` returns true (the default), nothing (Ethereum USDT) or false (Tron USDT). */
  deployToken(options: { symbol: string; decimals: number; name?: string; kind?: TestTokenKind }): Promise<Address>;
  /**
   * Mint and transfer resolve once their transaction is mined. With automine off that means whatever mines next:
   * start the call, then `mine()` (or let interval mining run), then await it.
   */
  mint(token: Address, to: Address, amount: bigint): Promise<TransferReceipt>;
  /** From one of the funded accounts by index, or from any account (fund it first: `fund`). */
  transfer(token: Address, from: number | HDAccount, to: Address, amount: bigint): Promise<TransferReceipt>;
  /** `owner`'s balance of `token`, in base units. */
  tokenBalance(token: Address, owner: Address): Promise<bigint>;
  /** Sets the account's ETH balance, for gas (hardhat_setBalance). */
  fund(address: Address, wei: bigint): Promise<void>;
  /** Mines `blocks` empty blocks (pending transactions go into the first), timestamps one second apart. */
  mine(blocks: number): Promise<void>;
  /** Hardhat forgets a snapshot once it has been reverted to: take a new one to revert again. */
  snapshot(): Promise<Hex>;
  revert(id: Hex): Promise<void>;
  setAutomine(on: boolean): Promise<void>;
  /** 0 turns interval mining off. */
  setIntervalMining(ms: number): Promise<void>;
  blockNumber(): Promise<bigint>;
  stop(): Promise<void>;
}

/** The contract behind each kind of test token, all in this folder. */
const TEST_TOKEN_CONTRACTS = { standard: 'TestToken', noReturn: 'NoReturnToken', falseReturn: 'FalseReturnToken' } as const;
export type TestTokenKind = keyof typeof TEST_TOKEN_CONTRACTS;

const TEST_TOKENS: SolidityUnit = {
  name: 'TestTokens',
  files: ['TestToken.sol', 'NoReturnToken.sol', 'FalseReturnToken.sol'].map((file) => fileURLToPath(new URL(`./${file}`, import.meta.url))),
};

const testTokenAbi = [
  ...erc20Abi,
  ...parseAbi(['constructor(string name, string symbol, uint8 decimals)', 'function mint(address to, uint256 value)']),
] as const;

export async function createLocalChain(options: HardhatNodeOptions = {}): Promise<LocalChain> {
  // The BIP-39 seed costs 2048 PBKDF2 rounds; the async variant yields, so it overlaps with the node booting.
  const [started, prepared] = await Promise.allSettled([
    startHardhatNode(options),
    Promise.all([compileSolidity(TEST_TOKENS), mnemonicToSeed(HARDHAT_MNEMONIC)]),
  ]);
  if (prepared.status === 'rejected') {
    if (started.status === 'fulfilled') await started.value.stop();
    throw prepared.reason;
  }
  if (started.status === 'rejected') throw started.reason;
  const node = started.value;
  const [testTokens, seed] = prepared.value;
  const masterKey = HDKey.fromMasterSeed(seed);

  const account = (index: number): HDAccount => {
    if (!Number.isInteger(index) || index < 0 || index >= HARDHAT_ACCOUNT_COUNT) {
      throw new RangeError(`account index ${index} is not one of Hardhat's ${HARDHAT_ACCOUNT_COUNT} funded accounts`);
    }
    return hdKeyToAccount(masterKey, { addressIndex: index });
  };
  const chain = defineChain({ ...hardhat, id: node.chainId, rpcUrls: { default: { http: [node.rpcUrl] } } });
  const transport = http(node.rpcUrl);
  // viem caches the block number for pollingInterval (4 s by default) and polls receipts at that pace; a local
  // chain answers in milliseconds and tests read the head right after mining.
  const publicClient = createPublicClient({ chain, transport, cacheTime: 0, pollingInterval: 50 });
  const testClient = createTestClient({ chain, transport, mode: 'hardhat', cacheTime: 0, pollingInterval: 50 });
  const walletClientOf = (signer: HDAccount) =>
    createWalletClient({ chain, transport, account: signer, cacheTime: 0, pollingInterval: 50 });
  const walletClientFor = (accountIndex: number) => walletClientOf(account(accountIndex));
  const walletClient = walletClientFor(0);

  async function transferReceipt(hash: Hash, token: Address): Promise<TransferReceipt> {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    const log = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).find((entry) =>
      isAddressEqual(entry.address, token),
    );
    if (!log) throw new Error(`transaction ${hash} emitted no Transfer from ${token}`);
    return { hash, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, logIndex: log.logIndex };
  }

  return {
    rpcUrl: node.rpcUrl,
    chainId: node.chainId,
    chain,
    publicClient,
    testClient,
    walletClient,
    account,
    walletClientFor,

    async deployToken({ symbol, decimals, name = `Test ${symbol}`, kind = 'standard' }) {
      if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) throw new RangeError(`decimals must fit a uint8, got ${decimals}`);
      const compiled = testTokens[TEST_TOKEN_CONTRACTS[kind]];
      if (!compiled) throw new Error(`solc produced no ${TEST_TOKEN_CONTRACTS[kind]} contract`);
      const hash = await walletClient.deployContract({ abi: testTokenAbi, bytecode: compiled.bytecode, args: [name, symbol, decimals] });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying ${symbol} failed in transaction ${hash}`);
      return receipt.contractAddress;
    },

    async mint(tokenAddress, to, amount) {
      const hash = await walletClient.writeContract({ address: tokenAddress, abi: testTokenAbi, functionName: 'mint', args: [to, amount] });
      return transferReceipt(hash, tokenAddress);
    },

    async transfer(tokenAddress, from, to, amount) {
      const hash = await (typeof from === 'number' ? walletClientFor(from) : walletClientOf(from)).writeContract({
        address: tokenAddress,
        abi: testTokenAbi,
        functionName: 'transfer',
        args: [to, amount],
      });
      return transferReceipt(hash, tokenAddress);
    },

    tokenBalance(tokenAddress, owner) {
      return publicClient.readContract({ address: tokenAddress, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
    },

    async fund(address, wei) {
      await testClient.setBalance({ address, value: wei });
    },

    async mine(blocks) {
      if (!Number.isInteger(blocks) || blocks < 1) throw new RangeError(`blocks must be a positive integer, got ${blocks}`);
      await testClient.request({ method: 'hardhat_mine', params: [`0x${blocks.toString(16)}`, '0x1'] });
    },

    snapshot() {
      return testClient.request({ method: 'evm_snapshot' });
    },

    async revert(id) {
      // Hardhat answers false, not an error, for an unknown or already used snapshot id.
      const reverted: unknown = await testClient.request({ method: 'evm_revert', params: [id] });
      if (reverted !== true) throw new Error(`evm_revert(${id}) failed: unknown or already used snapshot`);
    },

    async setAutomine(on) {
      await testClient.request({ method: 'evm_setAutomine', params: [on] });
    },

    async setIntervalMining(ms) {
      // Called directly: viem's setIntervalMining takes seconds and converts for Hardhat, which wants milliseconds.
      await testClient.request({ method: 'evm_setIntervalMining', params: [ms] });
    },

    blockNumber() {
      return publicClient.getBlockNumber();
    },

    stop: node.stop,
  };
}
