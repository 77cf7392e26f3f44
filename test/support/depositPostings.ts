// A deposit credited to a session and settled by a treasury payout at a rate of 1, as the workflow and the signer post
// it: for tests that need deposits:<chain> to hold it as the service would.
import { depositCredited, depositSettled, type DepositFacts, type LedgerPosting } from '../../domain/ledger/ledger';

export function creditedAndSettled(deposit: DepositFacts & { merchantId: string; refundDue?: bigint }): LedgerPosting[] {
  const { merchantId, refundDue = 0n, ...facts } = deposit;
  const merchantUnits = facts.amount - refundDue;
  return [
    depositCredited({ ...facts, merchantUnits }),
    depositSettled({ ...facts, merchantId, pending: merchantUnits, merchantUnits, payable: merchantUnits }),
  ];
}
