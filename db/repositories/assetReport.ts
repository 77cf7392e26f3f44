// What the operator's report per asset (domain/settlement/assetReport.ts) reads: every account's balance per asset in
// one mode, as the ledger holds it now.
import type { AccountBalance } from '../../domain/settlement/assetReport';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

export async function ledgerBalances(sql: Queryable, mode: Mode): Promise<AccountBalance[]> {
  const rows = await sql<{ account: string; asset: string; amount: string }[]>`
    select account, asset, sum(amount)::text as amount from ledger_entries where mode = ${mode}
    group by account, asset having sum(amount) <> 0 order by account, asset`;
  return rows.map((r) => ({ account: r.account, asset: r.asset, amount: BigInt(r.amount) }));
}
