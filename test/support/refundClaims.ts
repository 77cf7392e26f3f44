// Refunds made directly in the database for the claim page's tests, with the claim link the customer would be sent.
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import type { Sql } from '../../db/client';
import { insertRefund, type NewRefund, type Refund } from '../../db/repositories/refunds';
import { issueRefundClaimToken } from '../../domain/refunds/refundClaimToken';
import { newRefundId } from '../../domain/wire/ids';

/** A Solana wallet: an on-curve public key, with its secret for signing. */
export function solanaWallet(seedByte: number): { secret: Uint8Array; address: string } {
  const secret = new Uint8Array(32).fill(seedByte);
  return { secret, address: base58.encode(ed25519.getPublicKey(secret)) };
}

/** A merchant's refund of `sessionId`, waiting for its claim, and its claim token. */
export async function pendingRefund(
  sql: Sql,
  session: { sessionId: string; merchantId: string },
  secret: string,
  overrides: Partial<NewRefund> = {},
): Promise<{ refund: Refund; token: string }> {
  const { refund } = await insertRefund(sql, {
    id: newRefundId(),
    mode: 'test',
    merchantId: session.merchantId,
    sessionId: session.sessionId,
    source: 'merchant',
    deposit: null,
    token: 'USDC',
    chain: 'solana',
    amountBaseUnits: 12_340_000n,
    amountUsdMicros: 12_340_000n,
    feePolicy: 'deducted',
    requireSenderProof: false,
    reason: null,
    idempotencyKey: null,
    expiresAt: new Date(Date.now() + 30 * 86_400_000),
    ...overrides,
  });
  return { refund, token: issueRefundClaimToken(refund.id, secret) };
}

/** A credited deposit of the session from `fromAddress`: the payment a merchant's refund returns. */
export async function creditedDeposit(sql: Sql, sessionId: string, chain: string, fromAddress: string, n: number): Promise<void> {
  await sql`
    insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address,
                          block_number, block_hash, stage, confirmations, credited)
    values (${chain}, ${`tx-${sessionId}-${n}`}, 0, 'testnet', ${sessionId}, 'USDC', 12340000, ${fromAddress},
            ${`to-${sessionId}`}, ${1000 + n}, ${`block-${n}`}, 'confirmed', 32, true)`;
}
