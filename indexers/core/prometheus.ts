// Prometheus view of the indexers' in-memory counters (metrics.ts): every value is read from the snapshots
// at scrape time, so the indexer loops never touch prom-client. Process metrics (RSS, heap) come along.
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { ChainMetricsSnapshot } from './metrics';

type Labels = Record<string, string>;

export function createIndexerRegistry(snapshot: () => ChainMetricsSnapshot[]): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const gauge = (name: string, help: string, read: (m: ChainMetricsSnapshot) => bigint | number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ['chain', 'network'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const m of snapshot()) {
          const value = read(m);
          if (value !== undefined) this.set({ chain: m.chain, network: m.network }, Number(value));
        }
      },
    });
  // Counters that restart from zero with the process, which Prometheus's rate() expects of a counter.
  const counter = (name: string, help: string, extra: string[], read: (m: ChainMetricsSnapshot) => Array<[Labels, number]>) =>
    new Counter({
      name,
      help,
      labelNames: ['chain', 'network', ...extra],
      registers: [registry],
      collect() {
        this.reset();
        for (const m of snapshot())
          for (const [labels, value] of read(m)) this.inc({ chain: m.chain, network: m.network, ...labels }, value);
      },
    });

  gauge('checkout_indexer_head_block', 'Newest block the chain node reported', (m) => m.head);
  gauge('checkout_indexer_cursor_block', 'Last block fully processed (deposits and cursor committed)', (m) => m.cursor);
  gauge('checkout_indexer_head_lag_blocks', 'Head minus cursor: how far the indexer is behind the chain', (m) => m.lag);
  gauge('checkout_indexer_last_tick_timestamp_seconds', 'Unix time of the last completed tick', (m) =>
    m.lastTickAt ? m.lastTickAt.getTime() / 1000 : undefined,
  );
  gauge(
    'checkout_indexer_head_subscription_live',
    '1 while the new-head websocket subscription delivers heads, 0 while the indexer falls back to polling',
    (m) => (m.subscriptionLive === undefined ? undefined : m.subscriptionLive ? 1 : 0),
  );
  counter('checkout_indexer_rpc_calls_total', 'JSON-RPC calls, every attempt', ['method'], (m) =>
    Object.entries(m.rpcCalls).map(([method, n]) => [{ method }, n]),
  );
  counter('checkout_indexer_rpc_errors_total', 'Failed JSON-RPC calls by error class', ['class'], (m) =>
    Object.entries(m.rpcErrors).map(([errorClass, n]) => [{ class: errorClass }, n]),
  );
  counter('checkout_indexer_deposits_total', 'Deposits by stage reached', ['stage'], (m) => [
    [{ stage: 'detected' }, m.depositsDetected],
    [{ stage: 'confirmed' }, m.depositsConfirmed],
    [{ stage: 'reorged' }, m.depositsReorged],
  ]);
  counter('checkout_indexer_signals_total', 'Signals to session workflows by outcome', ['outcome'], (m) => [
    [{ outcome: 'sent' }, m.signalsSent],
    [{ outcome: 'undeliverable' }, m.signalsUndeliverable],
    [{ outcome: 'error' }, m.signalErrors],
  ]);
  counter(
    'checkout_indexer_backfilled_deposits_total',
    'Deposits found by re-scanning for a watch the indexer learnt of late (a lost NOTIFY)',
    [],
    (m) => [[{}, m.depositsBackfilled]],
  );
  counter('checkout_indexer_reorgs_total', 'Reorgs handled', [], (m) => [[{}, m.reorgs]]);
  counter('checkout_indexer_tick_errors_total', 'Ticks that failed and were retried', [], (m) => [[{}, m.tickErrors]]);
  return registry;
}
