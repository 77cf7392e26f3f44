// Contract bytecode run under the TVM's rules where they differ from the EVM's in what the deposit contracts do:
// an @ethereumjs/evm (Prague) whose CREATE2 puts the new contract where java-tron does. java-tron's
// `Program.createContract2` hashes the deployer in its 21-byte account form and no 0xff
// (`WalletUtil.generateContractAddress2`: keccak256(0x41 ‖ deployer ‖ salt ‖ keccak256(init code))[12:]), written out
// here rather than imported from domain/addresses, so the contracts and the offline formula are both checked
// against it. The CREATE2 opcode's handler defers the address to the EVM's `_generateAddress`, the one place that
// decides where a CREATE2 lands (its gas under Prague never computes the address), so that is what is replaced:
// a custom 0xf5 handler could only call the same interpreter code. Energy is not modelled; gas is the EVM's, which
// domain/chains/tronEnergy.ts takes as the energy estimate of a sweep.
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM, Message, type EVM, type EVMResult } from '@ethereumjs/evm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, getAddress, hexToBytes, type Address, type Hex } from 'viem';

const TVM_CREATE2_PREFIX = 0x41;

/** @ethereumjs/evm's own Address class (of its @ethereumjs/util), taken from a default message so no second copy is imported. */
type VmAddress = Message['caller'];
const VmAddress = new Message({ gasLimit: 0n }).caller.constructor as new (bytes: Uint8Array) => VmAddress;

export const vmAddress = (address: Address): VmAddress => new VmAddress(hexToBytes(address));

export function tvmCreate2Address(deployer: Uint8Array, salt: Uint8Array, initCode: Uint8Array): Uint8Array {
  return keccak_256(new Uint8Array([TVM_CREATE2_PREFIX, ...deployer, ...salt, ...keccak_256(initCode)])).slice(12);
}

export interface TvmLog {
  address: Address;
  topics: [Hex, ...Hex[]];
  data: Hex;
}

export interface TvmCallResult {
  /** The revert data when it failed (empty for a failure without data), undefined when it succeeded. */
  reverted: Hex | undefined;
  returnValue: Hex;
  logs: TvmLog[];
  /** The gas the call's execution used under Prague's schedule, before refunds; no intrinsic (per-transaction) gas. */
  gasUsed: bigint;
}

export interface TvmRulesEvm {
  /** Runs `initCode` as a deployment from `from`; throws with the revert data when it fails. */
  deploy(from: Address, initCode: Hex): Promise<Address>;
  call(from: Address, to: Address, data: Hex): Promise<TvmCallResult>;
  code(address: Address): Promise<Hex>;
}

export async function createTvmRulesEvm(): Promise<TvmRulesEvm> {
  const evm: EVM = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) });
  const evmAddressOf = evm['_generateAddress'].bind(evm);
  evm['_generateAddress'] = async (message: Message) => {
    if (!message.salt || !(message.code instanceof Uint8Array)) return evmAddressOf(message);
    return new VmAddress(tvmCreate2Address(message.caller.bytes, message.salt, message.code));
  };

  const outcome = (result: EVMResult): TvmCallResult => {
    const { exceptionError, returnValue, logs = [], executionGasUsed } = result.execResult;
    return {
      gasUsed: executionGasUsed,
      reverted: exceptionError ? bytesToHex(returnValue) : undefined,
      returnValue: bytesToHex(returnValue),
      logs: logs.map(([address, topics, data]) => ({
        address: bytesToHex(address),
        topics: topics.map((topic) => bytesToHex(topic)) as [Hex, ...Hex[]],
        data: bytesToHex(data),
      })),
    };
  };

  // Each call starts as a transaction does, every account and slot cold: the EVM keeps its warm set from one runCall to
  // the next otherwise, and a sweep right after the test minted to its forwarders would be measured warm.
  const run = async (options: Parameters<EVM['runCall']>[0]) => {
    await evm.journal.cleanup();
    return evm.runCall(options);
  };

  return {
    async deploy(from, initCode) {
      const result = await run({ caller: vmAddress(from), data: hexToBytes(initCode), gasLimit: 30_000_000n });
      const { reverted } = outcome(result);
      if (reverted !== undefined || !result.createdAddress) throw new Error(`deployment from ${from} failed: ${reverted ?? 'no address'}`);
      return getAddress(result.createdAddress.toString());
    },
    async call(from, to, data) {
      return outcome(await run({ caller: vmAddress(from), to: vmAddress(to), data: hexToBytes(data), gasLimit: 30_000_000n }));
    },
    async code(address) {
      return bytesToHex(await evm.stateManager.getCode(vmAddress(address)));
    },
  };
}
