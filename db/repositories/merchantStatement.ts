// What a merchant's monthly statement (domain/settlement/merchantStatement.ts) reads: its payable's balance before the
// month and the entries of its payable and receivable posted in the month, in Solana USDC, in one mode.
import { ACCOUNT } from '../../domain/ledger/ledger';
import { merchantStatement, type MerchantStatement, type StatementEntry } from '../../domain/settlement/merchantStatement';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

export async function loadMerchantStatement(
  sql: Queryable,
  owner: { merchantId: string; mode: Mode },
  month: { text: string; start: Date; end: Date },
): Promise<MerchantStatement> {
  const payable = ACCOUNT.merchantPayable(owner.merchantId);
  const receivable = ACCOUNT.merchantReceivable(owner.merchantId);
  const [opening] = await sql<{ amount: string }[]>`
    select coalesce(sum(amount), 0)::text as amount from ledger_entries
    where account = ${payable} and asset = 'usdc:solana' and mode = ${owner.mode} and created_at < ${month.start}`;
  const rows = await sql<{ group_id: string; account: string; amount: string }[]>`
    select group_id, account, amount::text as amount from ledger_entries
    where account in (${payable}, ${receivable}) and asset = 'usdc:solana' and mode = ${owner.mode}
      and created_at >= ${month.start} and created_at < ${month.end}
    order by id`;
  const entries: StatementEntry[] = rows.map((r) => ({
    groupId: r.group_id,
    account: r.account === payable ? 'payable' : 'receivable',
    amount: BigInt(r.amount),
  }));
  return merchantStatement(month.text, BigInt(opening?.amount ?? '0'), entries);
}
