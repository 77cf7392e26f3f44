// Where the deposit contracts live, computed offline. Both are deployed through the deterministic deployment
// proxy (Arachnid's, at the same address on every EVM chain) with salt 0, so each address is a function of the
// committed bytecode and the factory's constructor arguments alone: the same on every chain, and known before
// anything is deployed (docs/settlement.md#evm-deposit-contracts).
import { concat, encodeDeployData, getContractAddress, zeroHash, type Address, type Hex } from 'viem';
import * as depositCollector from '../../contracts/artifacts/depositCollector';
import * as depositFactory from '../../contracts/artifacts/depositFactory';
import * as depositForwarder from '../../contracts/artifacts/depositForwarder';

/** github.com/Arachnid/deterministic-deployment-proxy: CREATE2 with the first 32 bytes of the calldata as salt. */
export const DETERMINISTIC_DEPLOYMENT_PROXY: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
export const DEPLOYMENT_SALT: Hex = zeroHash;

/** The factory's constructor arguments besides the implementation; one set per mode, the same on every chain. */
export interface DepositFactoryParams {
  /** Receives everything swept, for ever (immutable). */
  collector: Address;
  /** May add and remove sweepers; transferable per chain without moving any address. */
  owner: Address;
  /** The relayer allowed to sweep from the start. */
  sweeper: Address;
}

export interface DepositContractAddresses {
  /** DepositForwarder, the code behind every deposit address: EVM_DEPOSIT_FORWARDER_<MODE>. */
  forwarder: Address;
  /** DepositFactory: EVM_DEPOSIT_FACTORY_<MODE>. */
  factory: Address;
}

/** DepositCollector's constructor arguments; one set per mode, the same on every chain. */
export interface DepositCollectorParams {
  /** TokenMessengerV2: one address on the five mainnets (domain/cctp/domains.ts), another on their testnets. */
  tokenMessenger: Address;
  /** The treasury's USDC token account as bytes32 (solanaAddressBytes32); the owner may change it later. */
  mintRecipient: Hex;
  /** May withdraw, change the mint recipient and the sweepers. */
  owner: Address;
  /** The relayer allowed to burn from the start. */
  sweeper: Address;
}

export const forwarderInitCode = (): Hex => depositForwarder.bytecode;

export function depositFactoryInitCode(params: DepositFactoryParams): Hex {
  return encodeDeployData({
    abi: depositFactory.abi,
    bytecode: depositFactory.bytecode,
    args: [forwarderAddress(), params.collector, params.owner, params.sweeper],
  });
}

export function forwarderAddress(): Address {
  return throughProxy(forwarderInitCode());
}

export function depositContractAddresses(params: DepositFactoryParams): DepositContractAddresses {
  return { forwarder: forwarderAddress(), factory: throughProxy(depositFactoryInitCode(params)) };
}

export function depositCollectorInitCode(params: DepositCollectorParams): Hex {
  return encodeDeployData({
    abi: depositCollector.abi,
    bytecode: depositCollector.bytecode,
    args: [params.tokenMessenger, params.mintRecipient, params.owner, params.sweeper],
  });
}

/** The collector's address: what the factory's `collector` argument (and hence every deposit address) is. */
export function depositCollectorAddress(params: DepositCollectorParams): Address {
  return throughProxy(depositCollectorInitCode(params));
}

/** The calldata that makes the proxy deploy `initCode`: the salt, then the init code. */
export function proxyDeployData(initCode: Hex): Hex {
  return concat([DEPLOYMENT_SALT, initCode]);
}

function throughProxy(initCode: Hex): Address {
  return getContractAddress({ opcode: 'CREATE2', from: DETERMINISTIC_DEPLOYMENT_PROXY, salt: DEPLOYMENT_SALT, bytecode: initCode });
}
