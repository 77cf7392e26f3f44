// deposit_watches: what the indexers look for, an address on one chain of one network until a deadline.
import type { Network } from '../../domain/chains/tokenContracts';
import type { Queryable } from '../client';

/** The session's watch on the chain, moved to the address and deadline given; not awaited here so it can be pipelined. */
export function upsertDepositWatch(
  sql: Queryable,
  watch: { sessionId: string; chain: string; network: Network; address: string; watchUntil: Date },
) {
  return sql`
    insert into deposit_watches (session_id, chain, network, address, watch_until)
    values (${watch.sessionId}, ${watch.chain}, ${watch.network}, ${watch.address}, ${watch.watchUntil})
    on conflict (session_id, chain) do update set address = excluded.address, watch_until = excluded.watch_until`;
}
