// The deposit contracts of the local EVM chain (`npm start`, `npm run demo`): DepositForwarder and DepositFactory
// deployed through the deterministic deployment proxy exactly as `npm run deploy-contracts` deploys them, so test
// sessions get forwarder addresses computed offline. The roles are keys of Hardhat's public mnemonic on accounts
// of their own (never m/44'/60'/0'/0/<i>, the HD deposit addresses, nor the payer's 1'): development only.
import { parseEther, toHex, type Address, type Hex } from 'viem';
import { mnemonicToSeedSync } from '@scure/bip39';
import { HDKey, hdKeyToAccount } from 'viem/accounts';
import { deployDepositContracts } from '../../contracts/deployer';
import { depositContractAddresses, type DepositContractAddresses, type DepositFactoryParams } from '../../domain/depositContracts';
import { HARDHAT_MNEMONIC, type LocalChain } from './localChain';

/** The relayer: pays the sweeps' gas and is the factory's first sweeper (EVM_RELAYER_KEY_TEST, the signer's). */
export const DEV_RELAYER_PATH = "m/44'/60'/2'/0/0";
export const DEV_OWNER_PATH = "m/44'/60'/3'/0/0";
/**
 * Receives every sweep. A plain local account until the DepositCollector contract exists; then its address goes
 * here, and with it the factory's and every deposit address change (they derive from the collector).
 */
export const DEV_COLLECTOR_PATH = "m/44'/60'/4'/0/0";
const RELAYER_ETH = parseEther('1000');

export interface DevDepositContracts extends DepositContractAddresses {
  params: DepositFactoryParams;
  relayer: { address: Address; privateKey: Hex };
  /** EVM_DEPOSIT_FACTORY_TEST and EVM_DEPOSIT_FORWARDER_TEST, as config/depositForwarders.ts reads them. */
  env: Record<string, string>;
  /** EVM_RELAYER_KEY_TEST: for the signer alone. */
  signerEnv: Record<string, string>;
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
export function devDepositContractParams(): { params: DepositFactoryParams; relayer: { address: Address; privateKey: Hex } } {
  const relayer = devAccount(DEV_RELAYER_PATH);
  return { params: { collector: devAccount(DEV_COLLECTOR_PATH).address, owner: devAccount(DEV_OWNER_PATH).address, sweeper: relayer.address }, relayer };
}

export async function deployDevDepositContracts(local: LocalChain): Promise<DevDepositContracts> {
  const { params, relayer } = devDepositContractParams();
  await deployDepositContracts({ publicClient: local.publicClient, walletClient: local.walletClient }, params);
  await local.fund(relayer.address, RELAYER_ETH);
  const addresses = depositContractAddresses(params);
  return {
    ...addresses,
    params,
    relayer,
    env: { EVM_DEPOSIT_FACTORY_TEST: addresses.factory, EVM_DEPOSIT_FORWARDER_TEST: addresses.forwarder },
    signerEnv: { EVM_RELAYER_KEY_TEST: relayer.privateKey },
  };
}
