// The relayers' native-coin balances as the signer last read them (db/migrations/0001_baseline.sql), for the API's gauges.
import type { Queryable } from '../client';

export interface RelayerBalance {
  chain: string;
  mode: 'test' | 'live';
  address: string;
  balanceWei: bigint;
  observedAt: Date;
}

/** Keeps the latest reading per (chain, mode): a reading older than the stored one changes nothing. */
export async function recordRelayerBalance(sql: Queryable, reading: RelayerBalance): Promise<void> {
  await sql`
    insert into relayer_balances (chain, mode, address, balance_wei, observed_at)
    values (${reading.chain}, ${reading.mode}, ${reading.address}, ${reading.balanceWei.toString()}, ${reading.observedAt})
    on conflict (chain, mode) do update set address = excluded.address, balance_wei = excluded.balance_wei, observed_at = excluded.observed_at
    where relayer_balances.observed_at <= excluded.observed_at`;
}

export async function relayerBalances(sql: Queryable): Promise<RelayerBalance[]> {
  const rows = await sql<Array<{ chain: string; mode: 'test' | 'live'; address: string; balance_wei: string; observed_at: Date }>>`
    select chain, mode, address, balance_wei::text, observed_at from relayer_balances order by mode, chain`;
  return rows.map((r) => ({
    chain: r.chain,
    mode: r.mode,
    address: r.address,
    balanceWei: BigInt(r.balance_wei),
    observedAt: r.observed_at,
  }));
}
