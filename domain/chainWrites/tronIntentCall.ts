// What a Tron chain intent may send, rebuilt from its sweep row, as intentCall.ts does for EVM intents
// (docs/settlement.md#a-stored-call-is-signed-only-as-its-row-implies): a forwarder sweep calls its factory's
// sweepMany with its addresses' salts and its token, an HD sweep transfers its planned amount of its token to its
// collector, an HD top-up pays TRX to the swept address alone; none burns more for energy than the signer's fee limit.
import { decodeAbiParameters, type Hex } from 'viem';
import { tronAddressToEvmHex } from '../addresses/tron';

/** As chain_intents.call holds a Tron intent's TriggerSmartContract (db/repositories/chainIntents.ts). */
export interface TronCallShape {
  contract: string;
  functionSelector: string;
  parameter: string;
  feeLimit: string;
  callValue: string;
}
/** A TRX payment (TransferContract). */
export interface TronTransferShape {
  kind: 'transfer';
  to: string;
  amount: string;
}

const isTransfer = (write: TronCallShape | TronTransferShape): write is TronTransferShape => 'kind' in write && write.kind === 'transfer';

function sun(value: string): bigint | undefined {
  try {
    return BigInt(value);
  } catch {
    return undefined;
  }
}

function decoded(parameter: string, types: readonly [{ type: string }, { type: string }]): readonly unknown[] | undefined {
  try {
    return decodeAbiParameters(types, `0x${parameter}` as Hex);
  } catch {
    return undefined;
  }
}

/** The checks every contract call shares: its contract and selector, no TRX sent, a fee limit within the signer's. */
function callDifferences(
  stored: TronCallShape | TronTransferShape | null,
  expected: { contract: string; functionSelector: string; maxFeeLimitSun: bigint },
): { differences: string[]; call?: TronCallShape } {
  if (!stored) return { differences: ['it holds no call'] };
  if (isTransfer(stored)) return { differences: [`it pays ${stored.to} TRX, not a call of ${expected.contract}`] };
  const differences: string[] = [];
  if (stored.contract !== expected.contract) differences.push(`it calls ${stored.contract}, not ${expected.contract}`);
  if (stored.functionSelector !== expected.functionSelector)
    differences.push(`it calls ${stored.functionSelector}, not ${expected.functionSelector}`);
  if (sun(stored.callValue) !== 0n) differences.push(`it sends ${stored.callValue} sun, not 0`);
  const feeLimit = sun(stored.feeLimit);
  if (feeLimit === undefined || feeLimit > expected.maxFeeLimitSun)
    differences.push(`its fee limit ${stored.feeLimit} sun is above the signer's ${expected.maxFeeLimitSun}`);
  return { differences, call: stored };
}

const verdict = (differences: string[]) => (differences.length === 0 ? undefined : differences.join('; '));

/** A Tron forwarder sweep: sweepMany(salts, token) on its factory; the salts compared as a set. */
export function tronForwarderSweepDifference(
  stored: TronCallShape | TronTransferShape | null,
  sweep: { factory: string; tokenAddress: string; salts: readonly string[]; maxFeeLimitSun: bigint },
): string | undefined {
  const { differences, call } = callDifferences(stored, {
    contract: sweep.factory,
    functionSelector: 'sweepMany(bytes32[],address)',
    maxFeeLimitSun: sweep.maxFeeLimitSun,
  });
  if (!call) return verdict(differences);
  const args = decoded(call.parameter, [{ type: 'bytes32[]' }, { type: 'address' }]);
  if (!args) return verdict([...differences, 'its parameters are not sweepMany(bytes32[],address)']);
  const [salts, token] = args as [readonly string[], string];
  const planned = new Set(sweep.salts.map((s) => s.toLowerCase()));
  const called = new Set(salts.map((s) => s.toLowerCase()));
  if (planned.size !== called.size || [...called].some((s) => !planned.has(s)))
    differences.push("it sweeps other salts than the sweep's addresses'");
  if (token.toLowerCase() !== tronAddressToEvmHex(sweep.tokenAddress).toLowerCase())
    differences.push(`it sweeps another token than the sweep's ${sweep.tokenAddress}`);
  return verdict(differences);
}

/** A Tron HD sweep: transfer(collector, planned) on its token. */
export function tronHdTransferDifference(
  stored: TronCallShape | TronTransferShape | null,
  sweep: { tokenAddress: string; collector: string; plannedBaseUnits: bigint; maxFeeLimitSun: bigint },
): string | undefined {
  const { differences, call } = callDifferences(stored, {
    contract: sweep.tokenAddress,
    functionSelector: 'transfer(address,uint256)',
    maxFeeLimitSun: sweep.maxFeeLimitSun,
  });
  if (!call) return verdict(differences);
  const args = decoded(call.parameter, [{ type: 'address' }, { type: 'uint256' }]);
  if (!args) return verdict([...differences, 'its parameters are not transfer(address,uint256)']);
  const [to, amount] = args as [string, bigint];
  if (to.toLowerCase() !== tronAddressToEvmHex(sweep.collector).toLowerCase())
    differences.push(`it transfers to another address than the sweep's collector ${sweep.collector}`);
  if (amount !== sweep.plannedBaseUnits) differences.push(`it transfers ${amount}, not the planned ${sweep.plannedBaseUnits}`);
  return verdict(differences);
}

/** A Tron HD top-up: TRX to the swept address alone. */
export function tronTopUpDifference(stored: TronCallShape | TronTransferShape | null, sweptAddress: string): string | undefined {
  if (!stored) return 'it holds no call';
  if (!isTransfer(stored)) return `it calls ${stored.contract}; a top-up pays TRX only`;
  const differences: string[] = [];
  if (stored.to !== sweptAddress) differences.push(`it pays ${stored.to}, not the swept address ${sweptAddress}`);
  if (sun(stored.amount) === undefined) differences.push(`its amount ${stored.amount} is not an amount of sun`);
  return verdict(differences);
}

/** A held-inventory withdrawal on Tron: rebalance(token, amount) on the configured collector, the row's token and amount. */
export function tronRebalanceDifference(
  stored: TronCallShape | TronTransferShape | null,
  withdrawal: { collector: string; tokenAddress: string; amount: bigint; maxFeeLimitSun: bigint },
): string | undefined {
  const { differences, call } = callDifferences(stored, {
    contract: withdrawal.collector,
    functionSelector: 'rebalance(address,uint256)',
    maxFeeLimitSun: withdrawal.maxFeeLimitSun,
  });
  if (!call) return verdict(differences);
  const args = decoded(call.parameter, [{ type: 'address' }, { type: 'uint256' }]);
  if (!args) return verdict([...differences, 'its parameters are not rebalance(address,uint256)']);
  const [token, amount] = args as [string, bigint];
  if (token.toLowerCase() !== tronAddressToEvmHex(withdrawal.tokenAddress).toLowerCase())
    differences.push(`it rebalances another token than the withdrawal's ${withdrawal.tokenAddress}`);
  if (amount !== withdrawal.amount) differences.push(`it rebalances ${amount}, not the withdrawal's ${withdrawal.amount}`);
  return verdict(differences);
}
