// A merchant's sessions of one mode matching list filters, newest first, with the token and chain the
// customer chose (null before select-payment).
import type { SessionListFilter } from '../../domain/wire/sessionListQuery';
import type { Mode } from '../../domain/wire/session';
import type { Sql } from '../client';
import { selectView, toView, type SessionView, type SessionViewRow } from './sessions';

export interface SessionListItem extends SessionView {
  token: string | null;
  chain: string | null;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listSessions(
  sql: Sql,
  owner: { merchantId: string; mode: Mode },
  filter: SessionListFilter,
): Promise<SessionListItem[]> {
  const rows = await sql<(SessionViewRow & { payment_token: string | null; payment_chain: string | null })[]>`
    select v.*, p.token as payment_token, p.chain as payment_chain
    from (${selectView(sql)}) v left join payments p on p.session_id = v.id
    where v.merchant_id = ${owner.merchantId} and v.mode = ${owner.mode}
      and v.created_at >= ${filter.created_from} and v.created_at < ${filter.created_to}
      ${filter.status ? sql`and v.status = ${filter.status}` : sql``}
      ${filter.chain ? sql`and p.chain = ${filter.chain}` : sql``}
      ${filter.token ? sql`and p.token = ${filter.token}` : sql``}
      ${filter.transaction_id ? sql`and v.ext_transaction_id ilike ${likePattern(filter.transaction_id)}` : sql``}
    order by v.created_at desc, v.id desc`;
  return rows.map((r) => ({ ...toView(r), token: r.payment_token, chain: r.payment_chain }));
}
