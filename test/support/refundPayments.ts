// Refunds as the API and the worker write them, for the signer's refund tests: a refund row of a session (automatic,
// of one of its deposits, or a merchant's), claimed to a destination, and the refund payer of a payout fixture's
// treasury, configured as the signer worker configures it.
import { MockActivityEnvironment } from '@temporalio/testing';
import { generateKeyPairSigner, type Address } from '@solana/kit';
import type { Sql } from '../../db/client';
import { insertRefund, moveRefund, type DepositKey } from '../../db/repositories/refunds';
import { NO_DEPOSIT_FORWARDERS } from '../../domain/addresses/depositForwarder';
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import type { RefundPaymentOutcome, RefundPaymentRequest } from '../../domain/refunds/refundPayment';
import type { RefundSource } from '../../domain/refunds/refundSource';
import { newRefundId } from '../../domain/wire/ids';
import type { FeePolicy } from '../../domain/wire/refund';
import type { Mode } from '../../domain/wire/session';
import type { TreasuryPayoutDeps } from '../../signer/payouts/treasuryPayout';
import { createRefundPayer, type RefundPayerDeps } from '../../signer/refunds/refundPayment';
import type { PayoutFixture } from '../activities/settlement/payoutFixture';

/**
 * The refund payer of `treasury`: a fee of 0.01 USD and, unless given, the `pending` receivable limit; deposits are
 * re-read from the local chain for test refunds above `rereadAboveUsdcBaseUnits` (default 1000 USDC) and every live one.
 */
export function refundPayerOf(
  f: PayoutFixture,
  treasury: TreasuryPayoutDeps,
  options: { merchantReceivableLimit?: bigint | 'pending'; networkFeeUsdMicros?: bigint; rereadAboveUsdcBaseUnits?: bigint } = {},
): RefundPayerDeps {
  return {
    sql: treasury.sql,
    rpc: treasury.rpc,
    treasury: treasury.treasury,
    usdcMint: treasury.usdcMint,
    memo: false,
    registry: f.registry,
    depositSeeds: f.depositSeeds,
    depositForwarders: NO_DEPOSIT_FORWARDERS,
    networkFeeUsdMicros: options.networkFeeUsdMicros ?? 10_000n,
    merchantReceivableLimit: options.merchantReceivableLimit ?? 'pending',
    rereadAboveUsdcBaseUnits: options.rereadAboveUsdcBaseUnits ?? 1_000_000_000n,
  };
}

export interface RefundRow {
  sessionId: string;
  merchantId: string;
  mode?: Mode;
  source: RefundSource;
  deposit?: DepositKey;
  token?: TokenSymbol;
  chain?: Chain;
  amountBaseUnits: bigint;
  amountUsdMicros?: bigint;
  feePolicy?: FeePolicy;
}

/**
 * A refund row, claimed to `destination` (a fresh wallet unless given) unless `claimed` is false; written by `sql`
 * (the schema owner unless given).
 */
export async function claimedRefund(
  sql: Sql,
  row: RefundRow,
  options: { destination?: string; claimed?: boolean } = {},
): Promise<{ request: RefundPaymentRequest; destination: Address }> {
  const mode = row.mode ?? 'test';
  // One automatic refund per deposit: asked again, it is the one that stands.
  const { refund } = await insertRefund(sql, {
    id: newRefundId(),
    mode,
    merchantId: row.merchantId,
    sessionId: row.sessionId,
    source: row.source,
    deposit: row.deposit ?? null,
    token: row.token ?? 'USDC',
    chain: row.chain ?? 'solana',
    amountBaseUnits: row.amountBaseUnits,
    amountUsdMicros: row.amountUsdMicros ?? row.amountBaseUnits,
    feePolicy: row.feePolicy ?? 'deducted',
    requireSenderProof: false,
    reason: null,
    idempotencyKey: null,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  const { id } = refund;
  const destination = (options.destination ?? (await generateKeyPairSigner()).address) as Address;
  if (options.claimed !== false)
    await sql.begin((tx) => moveRefund(tx, id, 'claim', { destination: { chain: 'solana', token: 'USDC', address: destination } }));
  return { request: { refundId: id, mode }, destination };
}

/** One refund pass in an activity context, as the signer worker runs it. */
export function payRefundOnce(deps: RefundPayerDeps, request: RefundPaymentRequest): Promise<RefundPaymentOutcome> {
  const pay = createRefundPayer(deps);
  return new MockActivityEnvironment({ scheduledTimestampMs: Date.now() }).run<[RefundPaymentRequest], RefundPaymentOutcome, typeof pay>(
    pay,
    request,
  );
}

/** Passes until the refund is confirmed or failed, producing a block after each submitted one. */
export async function payRefundUntilDone(
  f: PayoutFixture,
  deps: RefundPayerDeps,
  request: RefundPaymentRequest,
): Promise<RefundPaymentOutcome> {
  for (let pass = 0; pass < 10; pass++) {
    const outcome = await payRefundOnce(deps, request);
    if (outcome.status !== 'submitted') return outcome;
    f.chain.produce();
  }
  throw new Error(`refund ${request.refundId} not done after 10 blocks`);
}
