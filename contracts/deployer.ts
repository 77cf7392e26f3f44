// Deploys the deposit contracts on one EVM chain at their deterministic addresses (domain/chains/depositContracts.ts).
// Idempotent: whatever already has code is left alone, so running it again, or on a chain where another
// operator already deployed, changes nothing. Anyone may deploy through the proxy and no role comes from
// deploying (the factory's owner and sweeper are constructor arguments), so the deploying key only pays gas.
import type { Account, Address, Chain, Hash, Hex, PublicClient, Transport, WalletClient } from 'viem';
import {
  DETERMINISTIC_DEPLOYMENT_PROXY,
  depositCollectorAddress,
  depositCollectorInitCode,
  depositContractAddresses,
  depositFactoryInitCode,
  forwarderInitCode,
  proxyDeployData,
  type DepositCollectorParams,
  type DepositFactoryParams,
} from '../domain/chains/depositContracts';

/**
 * The proxy's published keyless deployment (github.com/Arachnid/deterministic-deployment-proxy, README): a
 * pre-EIP-155 transaction, valid on every chain, signed by a key nobody holds, from the signer below, with
 * nonce 0, gas price 100 gwei and gas limit 100 000. Where the proxy is missing, sending it is the only way to
 * get the proxy at its one address.
 */
export const PROXY_DEPLOYMENT_TRANSACTION: Hex =
  '0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba02222222222222222222222222222222222222222222222222222222222222222a02222222222222222222222222222222222222222222222222222222222222222';
export const PROXY_DEPLOYMENT_SIGNER: Address = '0x3fab184622dc19b6109349b94811493bf2a45362';
/** Gas price × gas limit of the transaction above: what the signer must hold. */
export const PROXY_DEPLOYMENT_COST = 100_000_000_000n * 100_000n;
/** What the proxy's address holds once deployed (the same README). */
export const PROXY_RUNTIME_CODE: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';

export interface DeploymentStep {
  contract: 'DeterministicDeploymentProxy' | 'DepositForwarder' | 'DepositFactory' | 'DepositCollector';
  address: Address;
  /** `present`: code was already there and nothing was sent. */
  outcome: 'present' | 'deployed';
  transactions: Hash[];
}

export interface DeployerClients {
  publicClient: PublicClient<Transport, Chain>;
  walletClient: WalletClient<Transport, Chain, Account>;
}

export async function deployDepositContracts(clients: DeployerClients, params: DepositFactoryParams): Promise<DeploymentStep[]> {
  const addresses = depositContractAddresses(params);
  const proxy = await ensureDeploymentProxy(clients);
  // The factory's constructor refuses an implementation without code, so the forwarder goes first.
  const forwarder = await deployThroughProxy(clients, 'DepositForwarder', addresses.forwarder, forwarderInitCode());
  const factory = await deployThroughProxy(clients, 'DepositFactory', addresses.factory, depositFactoryInitCode(params));
  return [proxy, forwarder, factory];
}

/** The collector first where both are deployed: the factory's `collector` is its address (depositCollectorAddress). */
export async function deployDepositCollector(clients: DeployerClients, params: DepositCollectorParams): Promise<DeploymentStep[]> {
  const proxy = await ensureDeploymentProxy(clients);
  const collector = await deployThroughProxy(
    clients,
    'DepositCollector',
    depositCollectorAddress(params),
    depositCollectorInitCode(params),
  );
  return [proxy, collector];
}

export async function ensureDeploymentProxy({ publicClient, walletClient }: DeployerClients): Promise<DeploymentStep> {
  const address = DETERMINISTIC_DEPLOYMENT_PROXY;
  if (await hasCode(publicClient, address))
    return { contract: 'DeterministicDeploymentProxy', address, outcome: 'present', transactions: [] };
  const transactions: Hash[] = [];
  const balance = await publicClient.getBalance({ address: PROXY_DEPLOYMENT_SIGNER });
  if (balance < PROXY_DEPLOYMENT_COST) {
    const hash = await walletClient.sendTransaction({ to: PROXY_DEPLOYMENT_SIGNER, value: PROXY_DEPLOYMENT_COST - balance });
    await mined(publicClient, hash, `funding the proxy's deployment signer ${PROXY_DEPLOYMENT_SIGNER}`);
    transactions.push(hash);
  }
  const hash = await publicClient.sendRawTransaction({ serializedTransaction: PROXY_DEPLOYMENT_TRANSACTION });
  await mined(publicClient, hash, 'the deterministic deployment proxy');
  transactions.push(hash);
  const code = await publicClient.getCode({ address });
  if (code?.toLowerCase() !== PROXY_RUNTIME_CODE) throw new Error(`the code at ${address} is not the deterministic deployment proxy's`);
  return { contract: 'DeterministicDeploymentProxy', address, outcome: 'deployed', transactions };
}

async function deployThroughProxy(
  { publicClient, walletClient }: DeployerClients,
  contract: DeploymentStep['contract'],
  address: Address,
  initCode: Hex,
): Promise<DeploymentStep> {
  if (await hasCode(publicClient, address)) return { contract, address, outcome: 'present', transactions: [] };
  const hash = await walletClient.sendTransaction({ to: DETERMINISTIC_DEPLOYMENT_PROXY, data: proxyDeployData(initCode) });
  await mined(publicClient, hash, contract);
  // The proxy reverts when CREATE2 fails, but only code at the predicted address proves the prediction right.
  if (!(await hasCode(publicClient, address))) throw new Error(`${contract} deployment ${hash} left no code at ${address}`);
  return { contract, address, outcome: 'deployed', transactions: [hash] };
}

async function hasCode(publicClient: PublicClient<Transport, Chain>, address: Address): Promise<boolean> {
  const code = await publicClient.getCode({ address });
  return code !== undefined && code !== '0x';
}

async function mined(publicClient: PublicClient<Transport, Chain>, hash: Hash, what: string): Promise<void> {
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`${what}: transaction ${hash} reverted`);
}
