// Deploys the TokenMessengerV2 / MessageTransmitterV2 stand-ins (TokenMessengerV2StandIn.sol, next to this file)
// on a local chain. Compiled here with solc-js directly, with the test token's settings, until the shared
// solc-js compile helper lands (toolchain/localChain/compileTestToken.ts is being generalised).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { address as solanaAddress } from '@solana/kit';
import { getAddress } from 'viem';
import type { Abi, Address, Hex } from 'viem';
import { z } from 'zod';
import { solanaAddressBytes32 } from '../../domain/cctp/depositForBurn';
import { SOLANA_CCTP_DOMAIN } from '../../domain/cctp/domains';
import type { LocalChain } from '../localChain/localChain';

const SOURCE_NAME = 'TokenMessengerV2StandIn.sol';
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

const outputSchema = z.object({
  errors: z.array(z.object({ severity: z.string(), formattedMessage: z.string() })).optional(),
  contracts: z.record(z.string(), z.record(z.string(), z.object({ abi: z.array(z.unknown()), evm: z.object({ bytecode: z.object({ object: z.string() }) }) }))).optional(),
});

let compiled: Promise<Record<ContractName, { abi: Abi; bytecode: Hex }>> | undefined;

function compile(): Promise<Record<ContractName, { abi: Abi; bytecode: Hex }>> {
  compiled ??= (async () => {
    const { default: solc } = await import('solc');
    const source = readFileSync(fileURLToPath(new URL(`./${SOURCE_NAME}`, import.meta.url)), 'utf8');
    const input = {
      language: 'Solidity',
      sources: { [SOURCE_NAME]: { content: source } },
      settings: { evmVersion: 'prague', optimizer: { enabled: true, runs: 200 }, outputSelection: { [SOURCE_NAME]: { '*': ['abi', 'evm.bytecode.object'] } } },
    };
    const output = outputSchema.parse(JSON.parse(solc.compile(JSON.stringify(input)) as string));
    const errors = (output.errors ?? []).filter((entry) => entry.severity === 'error').map((entry) => entry.formattedMessage);
    if (errors.length > 0) throw new Error(`solc could not compile ${SOURCE_NAME}:\n${errors.join('\n')}`);
    const pick = (name: ContractName) => {
      const contract = output.contracts?.[SOURCE_NAME]?.[name];
      if (!contract) throw new Error(`solc produced no ${name}`);
      return { abi: contract.abi as Abi, bytecode: `0x${contract.evm.bytecode.object}` as Hex };
    };
    return { MessageTransmitterV2StandIn: pick('MessageTransmitterV2StandIn'), TokenMessengerV2StandIn: pick('TokenMessengerV2StandIn') };
  })();
  return compiled;
}

export async function deployCctpStandIn(chain: LocalChain, options: CctpStandInOptions): Promise<CctpStandIn> {
  const artifacts = await compile();
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
