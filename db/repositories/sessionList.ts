// A merchant's sessions of one mode matching list filters, newest first, with the token and chain the
// customer chose (null before select-payment) and, for the dashboard, whether the ledger owes the customer
// back any of the session's deposits.
import type { SessionListFilter } from '../../domain/wire/sessionListQuery';
import type { Mode } from '../../domain/wire/session';
import type { Sql } from '../client';
import { refundDueOf } from './collectorSweeps';
import { selectView, toView, type SessionView, type SessionViewRow } from './sessions';

export interface SessionListItem extends SessionView {
  token: string | null;
  chain: string | null;
  /** Some deposit of the session has units in refund_due:<chain>; false unless asked for. */
  owesCustomer: boolean;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listSessions(
  sql: Sql,
  owner: { merchantId: string; mode: Mode },
  filter: SessionListFilter,
  /** Only the dashboard shows it; the API's list leaves out the ledger lookup. */
  options: { owesCustomer?: boolean } = {},
): Promise<SessionListItem[]> {
  const owes = options.owesCustomer
    ? sql`exists (select 1 from deposits d where d.session_id = v.id and ${refundDueOf(sql)} > 0)`
    : sql`false`;
  const rows = await sql<(SessionViewRow & { payment_token: string | null; payment_chain: string | null; owes_customer: boolean })[]>`
    select v.*, p.token as payment_token, p.chain as payment_chain, ${owes} as owes_customer
    from (${selectView(sql)}) v left join payments p on p.session_id = v.id
    where v.merchant_id = ${owner.merchantId} and v.mode = ${owner.mode}
      and v.created_at >= ${filter.created_from} and v.created_at < ${filter.created_to}
      ${filter.status ? sql`and v.status = ${filter.status}` : sql``}
      ${filter.chain ? sql`and p.chain = ${filter.chain}` : sql``}
      ${filter.token ? sql`and p.token = ${filter.token}` : sql``}
      ${filter.transaction_id ? sql`and v.ext_transaction_id ilike ${likePattern(filter.transaction_id)}` : sql``}
    order by v.created_at desc, v.id desc`;
  return rows.map((r) => ({ ...toView(r), token: r.payment_token, chain: r.payment_chain, owesCustomer: r.owes_customer }));
}
