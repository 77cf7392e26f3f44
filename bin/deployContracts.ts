// `npm run deploy-contracts -- <addresses|deploy> …`: the deposit contracts' addresses for a mode, computed offline,
// and their deployment on one EVM chain (the DepositCollector, when the treasury's USDC account is given, then the
// forwarder and the factory) (docs/operations.md, "Deposit contracts"). Run by an operator, never by a
// service: the deploying key is read from a file only this command opens, so it never enters a service's
// environment; it pays gas and nothing more (contracts/deployer.ts).
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createPublicClient, createWalletClient, defineChain, http, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { address as solanaAddress, isAddress as isSolanaAddress } from '@solana/kit';
import { z } from 'zod';
import { loadChainsConfig } from '../config/chains';
import { ConfigError } from '../config/env';
import { deployDepositCollector, deployDepositContracts } from '../contracts/deployer';
import { isEvmAddress, toChecksumEvmAddress } from '../domain/addresses/evm';
import { createChainRegistry } from '../domain/chains/chainRegistry';
import { CHAIN_FACTS, CHAINS, type Chain } from '../domain/chains/chains';
import { solanaAddressBytes32 } from '../domain/cctp/depositForBurn';
import { TOKEN_MESSENGER_V2 } from '../domain/cctp/domains';
import {
  depositCollectorAddress,
  depositContractAddresses,
  type DepositCollectorParams,
  type DepositFactoryParams,
} from '../domain/chains/depositContracts';
import { networkForMode } from '../domain/session/payablePairs';

const USAGE = [
  'usage: npm run deploy-contracts -- addresses --mode <test|live> (--treasury-usdc <Solana token account> | --collector <0x…>) --owner <0x…> --sweeper <0x…>',
  '       npm run deploy-contracts -- deploy --chain <evm chain> --mode <test|live> (--treasury-usdc … | --collector …) --owner <0x…> --sweeper <0x…> --key-file <path> [--rpc-url <url>]',
  '',
  "  --treasury-usdc    the Solana treasury's USDC token account: deploys a DepositCollector burning to it through CCTP,",
  '                     and the factory sweeps into that collector',
  "  --token-messenger  with --treasury-usdc: CCTP's TokenMessengerV2 (default: Circle's, on the mode's network)",
  '  --collector        instead: an existing address that receives every sweep, for ever (immutable)',
  '  --owner            adds and removes sweepers (and withdraws from and re-points the collector)',
  "  --sweeper          the relayer allowed to sweep (and burn) from the start (EVM_RELAYER_KEY_<MODE>'s address)",
  '  --key-file         a file holding the 0x-hex private key that pays the deployment gas; readable by its owner only (chmod 600)',
  '  --rpc-url          default: the first of RPC_URLS_<CHAIN>_<NETWORK>',
  'The same mode and addresses give the same contract addresses on every chain: deploy with the same ones everywhere.',
].join('\n');

class UsageError extends Error {}

const EVM_CHAINS = CHAINS.filter((chain) => CHAIN_FACTS[chain].family === 'evm');
const address = z
  .string()
  .refine(isEvmAddress, 'is not an EVM address (EIP-55 checksum or all lowercase)')
  .transform((value) => toChecksumEvmAddress(value));
const roles = z
  .object({
    mode: z.enum(['test', 'live']),
    collector: address.optional(),
    'treasury-usdc': z.string().refine(isSolanaAddress, 'is not a Solana address (base58)').optional(),
    'token-messenger': address.optional(),
    owner: address,
    sweeper: address,
  })
  .refine((r) => (r.collector === undefined) !== (r['treasury-usdc'] === undefined), {
    message: 'give exactly one of --treasury-usdc and --collector',
    path: ['collector'],
  })
  .refine((r) => r['token-messenger'] === undefined || r['treasury-usdc'] !== undefined, {
    message: 'only with --treasury-usdc',
    path: ['token-messenger'],
  });
const deployOptions = roles.and(
  z.object({
    chain: z.enum(EVM_CHAINS as [Chain, ...Chain[]], { message: `must be one of ${EVM_CHAINS.join(', ')}` }),
    'key-file': z.string().min(1),
    'rpc-url': z.url({ protocol: /^https?$/ }).optional(),
  }),
);
type Given = z.infer<typeof roles>;

/** The contracts the options ask for: a DepositCollector of ours when --treasury-usdc names its mint recipient. */
function contractParams(given: Given): { collector?: DepositCollectorParams; factory: DepositFactoryParams } {
  const owner = given.owner as Address;
  const sweeper = given.sweeper as Address;
  if (given.collector) return { factory: { collector: given.collector as Address, owner, sweeper } };
  const collector: DepositCollectorParams = {
    tokenMessenger: (given['token-messenger'] as Address | undefined) ?? TOKEN_MESSENGER_V2[networkForMode(given.mode)],
    mintRecipient: solanaAddressBytes32(solanaAddress(given['treasury-usdc'] as string)),
    owner,
    sweeper,
  };
  return { collector, factory: { collector: depositCollectorAddress(collector), owner, sweeper } };
}

function parse<S extends z.ZodType>(schema: S, values: unknown): z.infer<S> {
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`).join('; '));
  return parsed.data;
}

function environmentLines(mode: 'test' | 'live', params: ReturnType<typeof contractParams>): string[] {
  const suffix = mode.toUpperCase();
  const addresses = depositContractAddresses(params.factory);
  return [
    `EVM_DEPOSIT_FACTORY_${suffix}=${addresses.factory}`,
    `EVM_DEPOSIT_FORWARDER_${suffix}=${addresses.forwarder}`,
    ...(params.collector ? [`EVM_DEPOSIT_COLLECTOR_${suffix}=${params.factory.collector}`] : []),
  ];
}

/** A key file others can read is refused, as ssh refuses such a private key. */
function readDeployerKey(path: string): `0x${string}` {
  let mode: number;
  let text: string;
  try {
    mode = statSync(path).mode;
    text = readFileSync(path, 'utf8').trim();
  } catch {
    throw new UsageError(`--key-file: cannot read ${path}`);
  }
  if ((mode & 0o077) !== 0) throw new UsageError(`--key-file: ${path} is readable by others; chmod 600 it`);
  if (!/^0x[0-9a-fA-F]{64}$/.test(text)) throw new UsageError('--key-file: expected 0x followed by 64 hex digits');
  return text as `0x${string}`;
}

async function deploy(options: z.infer<typeof deployOptions>, params: ReturnType<typeof contractParams>): Promise<string[]> {
  const deployment = createChainRegistry(loadChainsConfig(process.env)).get(options.chain, networkForMode(options.mode));
  const rpcUrl = options['rpc-url'] ?? deployment.rpcUrls[0];
  const suffix = `${options.chain.toUpperCase()}_${deployment.network.toUpperCase()}`;
  if (!rpcUrl) throw new UsageError(`no RPC endpoint: pass --rpc-url or set RPC_URLS_${suffix}`);
  const account = privateKeyToAccount(readDeployerKey(options['key-file']));
  const transport = http(rpcUrl);
  const chainId = await createPublicClient({ transport }).getChainId();
  // A wrong endpoint would put the contracts on a chain nobody meant, with the operator's gas.
  if (chainId !== deployment.chainId) {
    throw new UsageError(
      `${rpcUrl} is chain ${chainId}, not ${options.chain} ${deployment.network} (${deployment.chainId}); set CHAIN_ID_${suffix} if that chain is meant`,
    );
  }
  const chain = defineChain({
    id: chainId,
    name: options.chain,
    nativeCurrency: { name: 'native', symbol: 'native', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const clients = {
    publicClient: createPublicClient({ chain, transport }),
    walletClient: createWalletClient({ chain, transport, account }),
  };
  // The collector first: the factory's collector is its address.
  const collectorSteps = params.collector ? await deployDepositCollector(clients, params.collector) : [];
  const factorySteps = await deployDepositContracts(clients, params.factory);
  const steps = [...collectorSteps, ...factorySteps.filter((step) => !collectorSteps.some((done) => done.contract === step.contract))];
  return [
    `${options.chain} ${deployment.network} (chain ${chainId}), gas paid by ${account.address}:`,
    ...steps.map(
      (step) =>
        `  ${step.contract.padEnd(28)} ${step.address} ${step.outcome}${step.transactions.length > 0 ? ` (${step.transactions.join(', ')})` : ''}`,
    ),
  ];
}

async function main(argv: string[]): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined || command === '--help' || command === '-h') {
      console.log(USAGE);
      return 0;
    }
    if (command !== 'addresses' && command !== 'deploy') throw new UsageError(`unknown command ${command}`);
    const option = { type: 'string' } as const;
    const { values } = parseArgs({
      args: rest,
      strict: true,
      options: {
        mode: option,
        collector: option,
        'treasury-usdc': option,
        'token-messenger': option,
        owner: option,
        sweeper: option,
        chain: option,
        'key-file': option,
        'rpc-url': option,
      },
    });
    if (command === 'addresses' && (values.chain ?? values['key-file'] ?? values['rpc-url']) !== undefined)
      throw new UsageError('addresses takes no --chain, --key-file or --rpc-url');
    const given = command === 'deploy' ? parse(deployOptions, values) : parse(roles, values);
    const params = contractParams(given);
    const lines = command === 'deploy' ? await deploy(given as z.infer<typeof deployOptions>, params) : [];
    console.log([...lines, ...environmentLines(given.mode, params)].join('\n'));
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
      console.error(`error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    // One line, never a stack; the RPC's own message says what the chain refused.
    console.error(
      `error: ${error instanceof ConfigError ? error.message : error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
