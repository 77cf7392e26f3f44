// The operator's fee of a payout as the ledger holds it (docs/settlement.md#fees): what the signer checks a payout's row
// against before it signs, as it checks the row's netting (merchantReceivable.ts).
import { ACCOUNT } from '../../domain/ledger/ledger';
import { payoutFeeGroup } from '../../domain/ledger/payoutFeePosting';
import type { Queryable } from '../client';

/** What the payment's fee group credited operator_revenue: zero when it has none. */
export async function postedFee(tx: Queryable, paymentId: string): Promise<bigint> {
  const [row] = await tx<{ amount: string }[]>`
    select coalesce(sum(-amount), 0)::text as amount from ledger_entries
    where group_id = ${payoutFeeGroup(paymentId)} and account = ${ACCOUNT.operatorRevenue} and asset = 'usdc:solana'`;
  return BigInt(row?.amount ?? '0');
}
