// Deploys the TokenMessengerV2 / MessageTransmitterV2 stand-ins (TokenMessengerV2StandIn.sol, next to this file)
// on a local chain, compiled with solc-js like the test tokens.
import { fileURLToPath } from 'node:url';
import { address as solanaAddress } from '@solana/kit';
import { getAddress } from 'viem';
import type { Address, Hex } from 'viem';
import { solanaAddressBytes32 } from '../../domain/cctp/depositForBurn';
import { SOLANA_CCTP_DOMAIN } from '../../domain/cctp/domains';
import type { LocalChain } from '../localChain/localChain';
import { compileContract } from '../solidity/compileSolidity';

type ContractName = 'MessageTransmitterV2StandIn' | 'TokenMessengerV2StandIn';

/** TokenMessengerMinterV2's program id: what Circle registers as the remote token messenger of Solana's domain. */
export const SOLANA_TOKEN_MESSENGER_MINTER_V2 = 'CCTPV2vPZJS2u2BBsUoscuikbYjnpFmbFsvVuJdgUMQe';

export interface CctpStandIn {
  tokenMessenger: Address;
  messageTransmitter: Address;
  localDomain: number;
}

export interface CctpStandInOptions {
  burnToken: Address;
  /** The domain the local chain plays; 0 (ethereum) unless a test needs another. */
  localDomain?: number;
  remoteDomain?: number;
  remoteTokenMessenger?: Hex;
  /** TokenMessengerV2's `minFee`: 1000 = 1 bps; 0 = no minimum. */
  minFee?: bigint;
}

const STAND_IN = { name: 'cctp-stand-in', files: [fileURLToPath(new URL('./TokenMessengerV2StandIn.sol', import.meta.url))] };

export async function deployCctpStandIn(chain: LocalChain, options: CctpStandInOptions): Promise<CctpStandIn> {
  const artifacts = {
    MessageTransmitterV2StandIn: await compileContract(STAND_IN, 'MessageTransmitterV2StandIn'),
    TokenMessengerV2StandIn: await compileContract(STAND_IN, 'TokenMessengerV2StandIn'),
  };
  const localDomain = options.localDomain ?? 0;
  const remoteTokenMessenger = options.remoteTokenMessenger ?? solanaAddressBytes32(solanaAddress(SOLANA_TOKEN_MESSENGER_MINTER_V2));
  const deploy = async (name: ContractName, args: readonly unknown[]): Promise<Address> => {
    const hash = await chain.walletClient.deployContract({ abi: artifacts[name].abi, bytecode: artifacts[name].bytecode, args });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying ${name} failed in transaction ${hash}`);
    return getAddress(receipt.contractAddress);
  };
  const messageTransmitter = await deploy('MessageTransmitterV2StandIn', [localDomain]);
  const tokenMessenger = await deploy('TokenMessengerV2StandIn', [
    messageTransmitter,
    options.burnToken,
    options.remoteDomain ?? SOLANA_CCTP_DOMAIN,
    remoteTokenMessenger,
    options.minFee ?? 0n,
  ]);
  return { tokenMessenger, messageTransmitter, localDomain };
}
