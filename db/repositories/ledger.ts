import { isBalanced, type LedgerPosting } from '../../domain/ledger/ledger';
import type { Queryable } from '../client';

/**
 * Writes a posting's entries in one statement; a group already posted is left as it is, so posting the same
 * group again (a retried activity) changes nothing. The database refuses a group that does not balance.
 */
export async function postLedger(sql: Queryable, posting: LedgerPosting): Promise<void> {
  if (!isBalanced(posting)) throw new RangeError(`ledger group ${posting.groupId} does not balance`);
  const rows = posting.entries.map((e) => ({
    group_id: posting.groupId,
    mode: posting.mode,
    account: e.account,
    asset: e.asset,
    amount: e.amount.toString(),
    reference: posting.reference,
  }));
  await sql`insert into ledger_entries ${sql(rows, 'group_id', 'mode', 'account', 'asset', 'amount', 'reference')} on conflict (group_id, account, asset) do nothing`;
}

/** Groups that do not sum to zero per asset: always none, as the database enforces it; reconciliation checks. */
export async function unbalancedLedgerGroups(sql: Queryable): Promise<string[]> {
  const rows = await sql<{ group_id: string }[]>`
    select distinct group_id from (select group_id from ledger_entries group by group_id, asset having sum(amount) <> 0) g order by group_id`;
  return rows.map((r) => r.group_id);
}

export async function ledgerGroupExists(sql: Queryable, groupId: string): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`select exists (select 1 from ledger_entries where group_id = ${groupId}) as found`;
  return row?.found === true;
}
