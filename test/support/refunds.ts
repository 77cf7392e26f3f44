// Refunds as the API, the workflow and the signer leave them, for tests that read or act on them without a chain: the
// row written by insertRefund, moved by moveRefund, and the signer's refund_payouts row with its chain intent.
import { randomBytes } from 'node:crypto';
import type { Sql } from '../../db/client';
import { insertChainIntent } from '../../db/repositories/chainIntents';
import { insertRefund, moveRefund, type Refund } from '../../db/repositories/refunds';
import type { RefundSource } from '../../domain/refunds/refundSource';
import type { RefundStatus } from '../../domain/refunds/refundStatus';
import { newRefundId } from '../../domain/wire/ids';
import type { Mode } from '../../domain/wire/session';

export const CUSTOMER_WALLET = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

export interface TestRefundOptions {
  mode?: Mode;
  amountUsdMicros?: bigint;
  source?: RefundSource;
  /** The deposit an automatic refund returns (not for a merchant's refund). */
  deposit?: { chain: 'base' | 'solana'; txHash: string; logIndex: number; token: 'USDC' | 'USDT'; amountBaseUnits: bigint };
  status?: Exclude<RefundStatus, 'pending_claim'>;
  /** The signer's payment of it, written once claimed. */
  payout?: 'pending' | 'submitted' | 'confirmed' | 'failed';
  /** How long ago it was created and claimed. */
  ageMinutes?: number;
  reason?: string;
}

const PATH: Record<Exclude<RefundStatus, 'pending_claim'>, ('claim' | 'submit' | 'complete' | 'fail' | 'expire' | 'cancel')[]> = {
  claimed: ['claim'],
  submitted: ['claim', 'submit'],
  completed: ['claim', 'submit', 'complete'],
  failed: ['claim', 'fail'],
  expired: ['expire'],
  cancelled: ['cancel'],
};

/** A refund of the session, moved to `status` through the status machine, with its payment if asked. */
export async function insertTestRefund(
  sql: Sql,
  session: { merchantId: string; sessionId: string },
  options: TestRefundOptions = {},
): Promise<Refund> {
  const id = newRefundId();
  const usd = options.amountUsdMicros ?? 1_000_000n;
  const deposit = options.deposit;
  const { refund } = await insertRefund(sql, {
    id,
    mode: options.mode ?? 'test',
    merchantId: session.merchantId,
    sessionId: session.sessionId,
    source: options.source ?? (deposit ? 'late_deposit' : 'merchant'),
    deposit: deposit ? { chain: deposit.chain, txHash: deposit.txHash, logIndex: deposit.logIndex } : null,
    token: deposit?.token ?? 'USDC',
    chain: deposit?.chain ?? 'solana',
    amountBaseUnits: deposit?.amountBaseUnits ?? usd,
    amountUsdMicros: usd,
    feePolicy: 'deducted',
    requireSenderProof: false,
    reason: options.reason ?? null,
    idempotencyKey: deposit ? null : `test-${id}`,
    expiresAt: new Date(Date.now() + 30 * 86_400_000),
  });
  for (const event of options.status ? PATH[options.status] : []) {
    const moved = await sql.begin((tx) =>
      moveRefund(tx, id, event, event === 'claim' ? { destination: { chain: 'solana', token: 'USDC', address: CUSTOMER_WALLET } } : {}),
    );
    if (!moved.ok) throw new Error(moved.message);
  }
  if (options.payout) {
    const intentId = `refund:${id}`;
    await insertChainIntent(sql, intentId);
    const signature = options.payout === 'pending' ? null : randomBytes(32).toString('hex');
    await sql`insert into refund_payouts (refund_id, mode, chain, token, destination_address, amount_base_units, fee_base_units, intent_id,
                status, signature, treasury)
              values (${id}, ${refund.mode}, 'solana', 'USDC', ${CUSTOMER_WALLET}, ${(usd - 10_000n).toString()}, 10000, ${intentId},
                ${options.payout}, ${signature}, 'TestTreasury1111111111111111111111111111111')`;
  }
  if (options.ageMinutes !== undefined) {
    const at = new Date(Date.now() - options.ageMinutes * 60_000);
    await sql`update refunds set created_at = ${at}, updated_at = ${at}, claimed_at = case when claimed_at is null then null else ${at}::timestamptz end
              where id = ${id}`;
  }
  return refund;
}

/** A confirmed Base USDC deposit of the session that arrived late: what an automatic refund (`deposit` option) returns. */
export async function insertLateDeposit(
  sql: Sql,
  sessionId: string,
  amountBaseUnits: bigint,
): Promise<NonNullable<TestRefundOptions['deposit']>> {
  const txHash = `0x${randomBytes(32).toString('hex')}`;
  await sql`
    insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address,
                          block_number, block_hash, stage, confirmations, credited, late)
    values ('base', ${txHash}, 0, 'testnet', ${sessionId}, 'USDC', ${amountBaseUnits.toString()}, 'sender', 'to', 1, 'block', 'confirmed',
            64, false, true)`;
  return { chain: 'base', txHash, logIndex: 0, token: 'USDC', amountBaseUnits };
}
