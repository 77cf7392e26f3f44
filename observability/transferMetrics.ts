// CCTP transfers in flight on the API's registry, read from Postgres on each scrape: how many
// are at each stage per (mode, source chain), and how long the oldest has been in flight. Every stage of every
// pair is reported, zero included, so an alert's series never vanish: a Standard transfer lands in ~15-20 minutes,
// so checkout_transfer_oldest_in_flight_seconds > 3600 means one is stuck (docs/settlement.md#cctp-transfers).
import type { Registry } from 'prom-client';
import type { Sql } from '../db/client';
import { CCTP_SOURCE_DOMAINS } from '../domain/cctp/domains';
import { IN_FLIGHT_STAGES } from '../domain/cctp/transfer';
import { scrapedGauge } from './scrapedGauge';

const MODES = ['test', 'live'] as const;
const CHAINS = Object.keys(CCTP_SOURCE_DOMAINS);

interface InFlightRow {
  mode: string;
  source_chain: string;
  stage: string;
  count: number;
  oldest_seconds: number;
}

const inFlight = (sql: Sql) =>
  sql<InFlightRow[]>`
    select mode, source_chain, stage, count(*)::int as count, extract(epoch from now() - min(created_at))::float8 as oldest_seconds
    from transfers where stage in ('burning', 'burned', 'attested') group by mode, source_chain, stage`;

export function registerTransferMetrics(registry: Registry, sql: Sql): void {
  scrapedGauge(registry, {
    name: 'checkout_transfers_in_flight',
    help: 'CCTP transfers not yet received on Solana, by mode, source chain and stage (burning, burned, attested)',
    labelNames: ['mode', 'chain', 'stage'],
    async read() {
      const rows = await inFlight(sql);
      return MODES.flatMap((mode) =>
        CHAINS.flatMap((chain) =>
          IN_FLIGHT_STAGES.map(
            (stage) =>
              [
                { mode, chain, stage },
                rows.find((r) => r.mode === mode && r.source_chain === chain && r.stage === stage)?.count ?? 0,
              ] as const,
          ),
        ),
      );
    },
  });
  scrapedGauge(registry, {
    name: 'checkout_transfer_oldest_in_flight_seconds',
    help: 'Age of the oldest CCTP transfer in flight per mode and source chain; 0 when none is',
    labelNames: ['mode', 'chain'],
    async read() {
      const rows = await inFlight(sql);
      return MODES.flatMap((mode) =>
        CHAINS.map((chain) => {
          const ages = rows.filter((r) => r.mode === mode && r.source_chain === chain).map((r) => r.oldest_seconds);
          return [{ mode, chain }, ages.length === 0 ? 0 : Math.max(...ages)] as const;
        }),
      );
    },
  });
}
