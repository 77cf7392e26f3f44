// A session whose settlement failed before any payout, as the workflow leaves it: the session `failed`, its payment, its
// confirmed deposits credited and posted (pending for the merchant), and no payout; for `settlement refund` tests.
import { randomBytes } from 'node:crypto';
import type { Sql } from '../../db/client';
import { postCreditedDeposits } from '../../db/repositories/depositLedger';
import { setDepositVerdict } from '../../db/repositories/deposits';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { networkForMode } from '../../domain/session/payablePairs';
import { paymentIdForSession } from '../../domain/wire/ids';
import type { SessionStatus } from '../../domain/wire/status';
import { sessionRecord } from './sessionRecords';
import { deposit, indexerRecords } from './workflowHarness';

export interface FailedSettlement {
  sessionId: string;
  paymentId: string;
  /** The credited deposits' transaction hashes, in the order given. */
  txHashes: string[];
}

export async function insertFailedSettlement(
  sql: Sql,
  merchantId: string,
  amounts: bigint[],
  status: SessionStatus = 'failed',
): Promise<FailedSettlement> {
  const record = sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 });
  await insertSessionRecord(sql, record, status);
  const paymentId = paymentIdForSession(record.sessionId);
  const toAddress = `0x${randomBytes(20).toString('hex')}`;
  const total = amounts.reduce((sum, a) => sum + a, 0n).toString();
  await sql`insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
            values (${paymentId}, ${record.sessionId}, 'USDC', 'base', ${toAddress}, ${total}, ${total}, 6)`;
  const txHashes: string[] = [];
  for (const [i, amount] of amounts.entries()) {
    const d = { ...deposit({ amount: amount.toString(), toAddress }), blockNumber: String(1000 + i) };
    await indexerRecords(sql, record.sessionId, d, { confirmations: 64 });
    await setDepositVerdict(sql, record.sessionId, networkForMode('test'), d, { credited: true, late: false });
    txHashes.push(d.txHash);
  }
  await postCreditedDeposits(sql, paymentId);
  return { sessionId: record.sessionId, paymentId, txHashes };
}
