// A local chain with the deposit contracts deployed the way operators deploy them (contracts/deployer.ts), and
// helpers to fund deposit addresses and sweep them as the relayer would.
import { keccak256, parseEventLogs, toHex, type Address, type Hash, type Hex } from 'viem';
import * as depositFactory from '../../contracts/artifacts/depositFactory';
import { deployDepositContracts, type DeploymentStep } from '../../contracts/deployer';
import type { DepositFactoryParams } from '../../domain/chains/depositContracts';
import { createLocalChain, type LocalChain } from '../../toolchain/localChain/localChain';

export const OWNER = 1;
export const SWEEPER = 2;
export const STRANGER = 3;
export const COLLECTOR = 4;
export const PAYER = 5;

export interface DepositContractsChain {
  chain: LocalChain;
  params: DepositFactoryParams;
  deployment: DeploymentStep[];
  factory: Address;
  forwarder: Address;
}

export async function startDepositContractsChain(options: { chainId?: number } = {}): Promise<DepositContractsChain> {
  const chain = await createLocalChain(options);
  try {
    const params = {
      collector: chain.account(COLLECTOR).address,
      owner: chain.account(OWNER).address,
      sweeper: chain.account(SWEEPER).address,
    };
    const deployment = await deployDepositContracts({ publicClient: chain.publicClient, walletClient: chain.walletClient }, params);
    const address = (contract: DeploymentStep['contract']) => deployment.find((step) => step.contract === contract)!.address;
    return { chain, params, deployment, factory: address('DepositFactory'), forwarder: address('DepositForwarder') };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}

let saltCount = 0;
/** A fresh salt per call, so tests sharing a chain never share a deposit address. */
export function nextSalt(): Hex {
  saltCount += 1;
  return keccak256(toHex(`deposit-contracts-test:${saltCount}`));
}

/** EIP-1014 over the EIP-1167 init code, written out here rather than imported so the contract is checked against the formula. */
export interface SweptEvent {
  salt: Hex;
  forwarder: Address;
  token: Address;
  amount: bigint;
}

export interface Sweep {
  hash: Hash;
  gasUsed: bigint;
  swept: SweptEvent[];
}

export async function sweepMany(setup: DepositContractsChain, salts: Hex[], token: Address, asAccount = SWEEPER): Promise<Sweep> {
  const { chain, factory } = setup;
  const hash = await chain
    .walletClientFor(asAccount)
    .writeContract({ address: factory, abi: depositFactory.abi, functionName: 'sweepMany', args: [salts, token] });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`sweepMany ${hash} reverted`);
  const swept = parseEventLogs({ abi: depositFactory.abi, eventName: 'Swept', logs: receipt.logs }).map((log) => log.args);
  return { hash, gasUsed: receipt.gasUsed, swept };
}

export function addressOf(setup: DepositContractsChain, salt: Hex): Promise<Address> {
  return setup.chain.publicClient.readContract({
    address: setup.factory,
    abi: depositFactory.abi,
    functionName: 'addressOf',
    args: [salt],
  });
}

export async function hasCode(chain: LocalChain, address: Address): Promise<boolean> {
  const code = await chain.publicClient.getCode({ address });
  return code !== undefined && code !== '0x';
}
