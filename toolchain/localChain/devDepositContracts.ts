// The inventory path's contracts on the local EVM chain (`npm start`, `npm run demo`), deployed through the
// deterministic deployment proxy exactly as `npm run deploy-contracts` deploys them: the DepositCollector, burning
// through the TokenMessengerV2 stand-in to the local Solana treasury's USDC account, then DepositForwarder and the
// DepositFactory sweeping into that collector, so test sessions get forwarder addresses computed offline. The
// roles are keys of Hardhat's public mnemonic on accounts of their own (never m/44'/60'/0'/0/<i>, the HD deposit
// addresses, nor the payer's 1'): development only.
import { parseEther, toHex, type Address, type Hex } from 'viem';
import { mnemonicToSeedSync } from '@scure/bip39';
import { HDKey, hdKeyToAccount, privateKeyToAccount } from 'viem/accounts';
import * as depositCollector from '../../contracts/artifacts/depositCollector';
import { deployDepositCollector, deployDepositContracts } from '../../contracts/deployer';
import {
  depositCollectorAddress,
  depositContractAddresses,
  type DepositCollectorParams,
  type DepositContractAddresses,
  type DepositFactoryParams,
} from '../../domain/chains/depositContracts';
import { HARDHAT_MNEMONIC, type LocalChain } from './localChain';

/** The relayer: pays the sweeps' and burns' gas, the factory's and the collector's first sweeper (EVM_RELAYER_KEY_TEST, the signer's). */
export const DEV_RELAYER_PATH = "m/44'/60'/2'/0/0";
export const DEV_OWNER_PATH = "m/44'/60'/3'/0/0";
const RELAYER_ETH = parseEther('1000');

export interface DevDepositContracts extends DepositContractAddresses {
  /** The DepositCollector every sweep lands in. */
  collector: Address;
  collectorParams: DepositCollectorParams;
  params: DepositFactoryParams;
  relayer: { address: Address; privateKey: Hex };
  /** EVM_DEPOSIT_FACTORY_TEST, EVM_DEPOSIT_FORWARDER_TEST and EVM_DEPOSIT_COLLECTOR_TEST, as config/env.ts reads them. */
  env: Record<string, string>;
  /** EVM_RELAYER_KEY_TEST: for the signer alone. */
  signerEnv: Record<string, string>;
}

/** Where the collector's burns go and through which messenger: known once the local chains are up. */
export interface DevCollectorTarget {
  tokenMessenger: Address;
  /** The local Solana treasury's USDC account as bytes32 (solanaAddressBytes32). */
  mintRecipient: Hex;
}

let hardhatMasterKey: HDKey | undefined;

function devAccount(path: string) {
  // The seed costs 2048 PBKDF2 rounds: computed once, not once per role.
  hardhatMasterKey ??= HDKey.fromMasterSeed(mnemonicToSeedSync(HARDHAT_MNEMONIC));
  const account = hdKeyToAccount(hardhatMasterKey, { path: path as `m/44'/60'/${string}` });
  const privateKey = account.getHdKey().privateKey;
  if (!privateKey) throw new Error(`no private key at ${path}`);
  return { address: account.address, privateKey: toHex(privateKey) };
}

/** The contracts' parameters and the relayer's key, known before anything is deployed. */
export function devDepositContractParams(target: DevCollectorTarget): {
  collectorParams: DepositCollectorParams;
  params: DepositFactoryParams;
  relayer: { address: Address; privateKey: Hex };
} {
  const relayer = devAccount(DEV_RELAYER_PATH);
  const owner = devAccount(DEV_OWNER_PATH).address;
  const collectorParams = { ...target, owner, sweeper: relayer.address };
  return { collectorParams, params: { collector: depositCollectorAddress(collectorParams), owner, sweeper: relayer.address }, relayer };
}

export async function deployDevDepositContracts(local: LocalChain, target: DevCollectorTarget): Promise<DevDepositContracts> {
  const { collectorParams, params, relayer } = devDepositContractParams(target);
  const clients = { publicClient: local.publicClient, walletClient: local.walletClient };
  // The factory's collector is the collector's address: it goes first.
  await deployDepositCollector(clients, collectorParams);
  await deployDepositContracts(clients, params);
  await local.fund(relayer.address, RELAYER_ETH);
  const addresses = depositContractAddresses(params);
  return {
    ...addresses,
    collector: params.collector,
    collectorParams,
    params,
    relayer,
    env: {
      EVM_DEPOSIT_FACTORY_TEST: addresses.factory,
      EVM_DEPOSIT_FORWARDER_TEST: addresses.forwarder,
      EVM_DEPOSIT_COLLECTOR_TEST: params.collector,
    },
    signerEnv: { EVM_RELAYER_KEY_TEST: relayer.privateKey },
  };
}

/**
 * The owner sets the collector to swap through `swapRouter` into `usdc`, no further below 1:1 than `maxDeviationBps`
 * (the signer's SWAP_MAX_DEVIATION_BPS), as an operator does once after deploying on a chain with a swap route.
 */
export async function configureDevCollectorSwaps(
  local: LocalChain,
  collector: Address,
  swaps: { swapRouter: Address; usdc: Address; maxDeviationBps: number },
): Promise<void> {
  const owner = devAccount(DEV_OWNER_PATH);
  await local.fund(owner.address, parseEther('1'));
  const wallet = local.walletClientFor(0);
  const ownerAccount = privateKeyToAccount(owner.privateKey);
  for (const [functionName, args] of [
    ['setSwapRouter', [swaps.swapRouter]],
    ['setSwapTokenOut', [swaps.usdc]],
    ['setMaxSwapDeviationBps', [swaps.maxDeviationBps]],
  ] as const) {
    const hash = await wallet.writeContract({
      account: ownerAccount,
      address: collector,
      abi: depositCollector.abi,
      functionName,
      args,
    } as never);
    const receipt = await local.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${functionName} on the collector reverted in ${hash}`);
  }
}
