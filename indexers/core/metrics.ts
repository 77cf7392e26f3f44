// Plain in-memory counters per chain and network, read through snapshot(); prometheus.ts serves the same
// snapshots on the indexer's /metrics without the loops knowing.
import type { Chain } from '../../domain/chains/chains';
import type { Network } from '../../domain/chains/tokenContracts';
import type { RpcErrorClass } from './rpcRetry';

export interface ChainMetrics {
  chain: Chain;
  network: Network;
  head: bigint | undefined;
  cursor: bigint | undefined;
  /** Calls per JSON-RPC method, counting every attempt. */
  rpcCalls: Record<string, number>;
  rpcErrors: Record<RpcErrorClass, number>;
  depositsDetected: number;
  depositsConfirmed: number;
  depositsReorged: number;
  /** Of depositsDetected: found by re-scanning for a watch the indexer learnt of after passing its blocks. */
  depositsBackfilled: number;
  reorgs: number;
  /** A block whose parentHash is not the hash the node gives for the block below it. */
  parentHashAnomalies: number;
  /** Whether the node's new-head subscription (EVM websocket) is delivering; undefined when none is configured. */
  subscriptionLive: boolean | undefined;
  signalsSent: number;
  /** The session workflow no longer exists: the deposit stays recorded for an operator. */
  signalsUndeliverable: number;
  signalErrors: number;
  tickErrors: number;
  lastTickAt: Date | undefined;
}

/** A copy, safe to hand out; `lag` is head − cursor. */
export interface ChainMetricsSnapshot extends ChainMetrics {
  lag: bigint | undefined;
}

export class IndexerMetrics {
  private readonly chains = new Map<string, ChainMetrics>();

  forChain(chain: Chain, network: Network): ChainMetrics {
    const key = `${chain}:${network}`;
    let metrics = this.chains.get(key);
    if (!metrics) {
      metrics = {
        chain,
        network,
        head: undefined,
        cursor: undefined,
        rpcCalls: {},
        rpcErrors: { timeout: 0, 'rate-limited': 0, server: 0, network: 0, 'range-too-large': 0, fatal: 0 },
        depositsDetected: 0,
        depositsConfirmed: 0,
        depositsReorged: 0,
        depositsBackfilled: 0,
        reorgs: 0,
        parentHashAnomalies: 0,
        subscriptionLive: undefined,
        signalsSent: 0,
        signalsUndeliverable: 0,
        signalErrors: 0,
        tickErrors: 0,
        lastTickAt: undefined,
      };
      this.chains.set(key, metrics);
    }
    return metrics;
  }

  snapshot(): ChainMetricsSnapshot[] {
    return [...this.chains.values()].map((m) => ({
      ...m,
      rpcCalls: { ...m.rpcCalls },
      rpcErrors: { ...m.rpcErrors },
      lag: m.head === undefined || m.cursor === undefined ? undefined : m.head > m.cursor ? m.head - m.cursor : 0n,
    }));
  }
}
