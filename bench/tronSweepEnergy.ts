// Energy per Tron forwarder sweep: the committed TVM build of DepositFactory, its forwarder, the collector and a token
// whose transfer returns false (as Tron USDT's does) run on @ethereumjs/evm under the TVM's CREATE2
// (test/support/tron/tvmRulesEvm.ts), each call starting cold. A sweepMany of n funded forwarders is timed in gas the
// first time (every clone deployed) and again once they exist, per address; then a lone token transfer (an HD sweep).
// Prague gas, not TVM energy: docs/settlement.md#tron-energy says how the service turns it into a fee limit.
import { fileURLToPath } from 'node:url';
import { encodeDeployData, encodeFunctionData, erc20Abi, keccak256, toHex, type Address, type Hex } from 'viem';
import * as depositCollector from '../contracts/artifacts/depositCollector';
import * as tvmDepositFactory from '../contracts/artifacts/tvm/depositFactory';
import * as tvmDepositForwarder from '../contracts/artifacts/tvm/depositForwarder';
import { depositSalt } from '../domain/addresses/depositSalt';
import { createTvmRulesEvm } from '../test/support/tron/tvmRulesEvm';
import { tronForwarderAddress } from '../domain/addresses/depositForwarder';
import { tronAddressFromEvmHex, tronAddressToEvmHex } from '../domain/addresses/tron';
import { compileContract } from '../toolchain/solidity/compileSolidity';
import { progress, type Row } from './report';

const DEPLOYER: Address = '0x00000000000000000000000000000000000de910';
const SWEEPER: Address = '0x0000000000000000000000000000000000005eee';
const BATCHES = [1, 5, 20, 50];

export async function benchTronSweepEnergy(): Promise<Row[]> {
  progress(`Tron sweep energy: sweepMany of ${BATCHES.join(', ')} forwarders on the TVM build, first and later sweeps`);
  const vm = await createTvmRulesEvm();
  const token = await compileContract(
    {
      name: 'ReturnsFalseToken',
      files: ['../test/contracts/ReturnsFalseToken.sol', '../toolchain/localChain/TestToken.sol'].map((p) =>
        fileURLToPath(new URL(p, import.meta.url)),
      ),
    },
    'ReturnsFalseToken',
  );
  const tokenAddress = await vm.deploy(DEPLOYER, token.bytecode);
  const must = async (from: Address, to: Address, data: Hex) => {
    const result = await vm.call(from, to, data);
    if (result.reverted !== undefined) throw new Error(`reverted: ${result.reverted}`);
    return result.gasUsed;
  };
  const mint = (to: Address, amount: bigint) =>
    must(DEPLOYER, tokenAddress, encodeFunctionData({ abi: token.abi, functionName: 'mint', args: [to, amount] }));
  const collector = await vm.deploy(
    DEPLOYER,
    encodeDeployData({
      abi: depositCollector.abi,
      bytecode: depositCollector.bytecode as Hex,
      args: ['0x0000000000000000000000000000000000000001', keccak256(toHex('treasury')), DEPLOYER, SWEEPER],
    }),
  );
  const forwarder = await vm.deploy(DEPLOYER, tvmDepositForwarder.bytecode as Hex);
  const factory = await vm.deploy(
    DEPLOYER,
    encodeDeployData({
      abi: tvmDepositFactory.abi,
      bytecode: tvmDepositFactory.bytecode as Hex,
      args: [forwarder, collector, DEPLOYER, SWEEPER],
    }),
  );
  await mint(collector, 1n);
  const contracts = { factory: tronAddressFromEvmHex(factory), implementation: tronAddressFromEvmHex(forwarder) };
  const cloneOf = (salt: Hex) => tronAddressToEvmHex(tronForwarderAddress(contracts, salt)) as Address;

  const rows: Row[] = [];
  for (const n of BATCHES) {
    const salts = Array.from({ length: n }, (_, i) => depositSalt(`cs_01JBENCHTRONENERGY${n}x${String(i).padStart(8, '0')}`));
    const sweep = async () => {
      for (const salt of salts) await mint(cloneOf(salt), 1_000_000n);
      return must(
        SWEEPER,
        factory,
        encodeFunctionData({ abi: tvmDepositFactory.abi, functionName: 'sweepMany', args: [salts, tokenAddress] }),
      );
    };
    const [first, later] = [await sweep(), await sweep()];
    rows.push({
      benchmark: `Tron sweepMany of ${n} forwarder${n === 1 ? '' : 's'}`,
      figure: `first ${first} (${first / BigInt(n)} per address), later ${later} (${later / BigInt(n)} per address)`,
      detail: 'gas on the TVM build under TVM CREATE2 rules (Prague schedule, cold start, no refunds); first: every clone deployed',
    });
  }
  const holder: Address = '0x00000000000000000000000000000000000e4e61';
  await mint(holder, 1_000_000n);
  const transfer = await must(
    holder,
    tokenAddress,
    encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [collector, 1_000_000n] }),
  );
  rows.push({
    benchmark: 'Tron HD transfer to the collector',
    figure: `${transfer}`,
    detail: "gas of the test token's transfer (returns false, as Tron USDT's does) to an account already holding it",
  });
  return rows;
}
