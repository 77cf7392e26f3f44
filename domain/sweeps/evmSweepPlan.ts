// Which forwarder deposit addresses a sweep takes and how they split into sweepMany calls
// (docs/settlement.md#evm-forwarder-sweeps, #tron-forwarder-sweeps): the EVM chains and Tron alike, since the TVM
// runs the same DepositFactory. A forwarder moves its whole balance, so what the chain holds now is what a sweep
// moves; a chain whose fees are dear (Ethereum L1, Tron's energy) waits until the total is worth a transaction.
import { CHAIN_FACTS, CHAINS, type Chain } from '../chains/chains';

export type EvmChain = Exclude<Chain, 'solana' | 'tron'>;
export const EVM_CHAINS = CHAINS.filter((chain): chain is EvmChain => CHAIN_FACTS[chain].family === 'evm');

/** The chains with forwarder deposit addresses: every EVM chain, and Tron. */
export type ForwarderChain = EvmChain | 'tron';
export const FORWARDER_CHAINS: readonly ForwarderChain[] = [...EVM_CHAINS, 'tron'];

/** Deposit addresses per sweepMany call unless configured (SWEEP_BATCH_SIZE). */
export const DEFAULT_SWEEP_BATCH_SIZE = 50;

/**
 * Whole tokens a chain's sweep waits for (SWEEP_MIN_AMOUNT_<CHAIN>): L1 gas for a batch costs dollars, an L2's cents;
 * on Tron each forwarder's token transfer burns energy worth dollars unless the relayer stakes TRX for it.
 */
export const DEFAULT_SWEEP_MIN_AMOUNT: Record<ForwarderChain, number> = {
  ethereum: 500,
  polygon: 0,
  arbitrum: 0,
  optimism: 0,
  base: 0,
  bsc: 0,
  tron: 100,
};

export interface EvmSweepCandidate extends SweepHolding {
  /** The deposit address, the clone of `factory` for `salt`. */
  address: string;
  salt: string;
  /** The factory that made the address (deposit_addresses.evm_factory / tron_factory): only it can sweep the address. */
  factory: string;
  sessionId: string;
}

export interface EvmSweepBatch<C extends EvmSweepCandidate = EvmSweepCandidate> {
  factory: string;
  addresses: C[];
}

/** What a sweep candidate needs for the plan to take it: the address and what it holds. */
export interface SweepHolding {
  address: string;
  /** The token balance the chain reports now. */
  balance: bigint;
}

/**
 * The addresses a run sweeps: those holding something, each once, in `orderKey` then address order, so a retried
 * plan takes them alike; none when their total is below `minimum` base units. Forwarder and HD addresses alike.
 */
export function holdingsToSweep<C extends SweepHolding>(
  candidates: readonly C[],
  minimum: bigint,
  orderKey: (candidate: C) => string = () => '',
): C[] {
  const seen = new Set<string>();
  const holding = [...candidates]
    .filter((c) => c.balance > 0n)
    .sort(
      (a, b) =>
        orderKey(a).toLowerCase().localeCompare(orderKey(b).toLowerCase()) ||
        a.address.toLowerCase().localeCompare(b.address.toLowerCase()),
    )
    .filter((c) => !seen.has(c.address.toLowerCase()) && seen.add(c.address.toLowerCase()));
  const total = holding.reduce((sum, c) => sum + c.balance, 0n);
  return total === 0n || total < minimum ? [] : holding;
}

/**
 * The batches of one run: addresses holding something, grouped by factory (one sweepMany each) in address order,
 * so a retried plan groups them alike, cut at `batchSize`; none when the total is below `minimum` base units.
 */
export function planEvmSweepBatches<C extends EvmSweepCandidate>(
  candidates: readonly C[],
  options: { minimum: bigint; batchSize: number },
): EvmSweepBatch<C>[] {
  if (!Number.isInteger(options.batchSize) || options.batchSize < 1)
    throw new RangeError(`a sweep batch holds at least one address, got ${options.batchSize}`);
  const batches: EvmSweepBatch<C>[] = [];
  for (const candidate of holdingsToSweep(candidates, options.minimum, (c) => c.factory)) {
    const last = batches.at(-1);
    if (last && last.factory.toLowerCase() === candidate.factory.toLowerCase() && last.addresses.length < options.batchSize)
      last.addresses.push(candidate);
    else batches.push({ factory: candidate.factory, addresses: [candidate] });
  }
  return batches;
}

/** A threshold in whole tokens as base units of a token with `decimals`. */
export function minimumBaseUnits(wholeTokens: number, decimals: number): bigint {
  return BigInt(wholeTokens) * 10n ** BigInt(decimals);
}

export interface SweptLog {
  /** The contract that emitted it: only the sweep's factory's events count. */
  emitter: string;
  forwarder: string;
  token: string;
  amount: bigint;
  logIndex: number;
}

/**
 * What a landed sweepMany moved, per deposit address, from its Swept events: those of `factory` for `token` only
 * (another contract can emit an event of the same shape in the same transaction).
 */
export function sweptAmounts(
  logs: readonly SweptLog[],
  factory: string,
  token: string,
): { perAddress: Map<string, bigint>; total: bigint; lastLogIndex: number | undefined } {
  const perAddress = new Map<string, bigint>();
  let total = 0n;
  let lastLogIndex: number | undefined;
  for (const log of logs) {
    if (log.emitter.toLowerCase() !== factory.toLowerCase() || log.token.toLowerCase() !== token.toLowerCase()) continue;
    const address = log.forwarder.toLowerCase();
    perAddress.set(address, (perAddress.get(address) ?? 0n) + log.amount);
    total += log.amount;
    lastLogIndex = Math.max(lastLogIndex ?? log.logIndex, log.logIndex);
  }
  return { perAddress, total, lastLogIndex };
}
