// The signer's reading of the facts a refund is judged on (domain/refunds/refundBacking.ts), before the refund's
// payment is written: the indexer's deposit rows, the session's own deposit addresses (re-derived from the signer's
// seed, signer/backing/depositAddressCheck.ts), the signer's own payouts and refund payments, and the ledger's
// merchant balances. Runs in the transaction that writes the payment, under the session's lock, so two refunds of one
// session each count the other.
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import type { Address } from '@solana/kit';
import type { Queryable } from '../../db/client';
import { depositRefunded, sessionRefunded } from '../../db/repositories/refundPayouts';
import { paymentTerms } from '../../db/repositories/payments';
import { lockUntilCommit } from '../../db/repositories/locks';
import { lockMerchantReceivable, merchantReceivable } from '../../db/repositories/merchantReceivable';
import type { Refund } from '../../db/repositories/refunds';
import type { ChainRegistry } from '../../domain/chains/chainRegistry';
import { CHAIN_FACTS, type Chain, type TokenSymbol } from '../../domain/chains/chains';
import type { Network } from '../../domain/chains/tokenContracts';
import { ACCOUNT, assetDecimals, type Asset } from '../../domain/ledger/ledger';
import {
  judgeAutomaticBacking,
  judgeMerchantBacking,
  judgeRefundSession,
  judgeSolanaOwner,
  type RefundVerdict,
  type SessionMoney,
} from '../../domain/refunds/refundBacking';
import type { DepositFact } from '../../domain/settlement/depositBacking';
import { depositShares } from '../../domain/settlement/unitOwnership';
import { networkForMode } from '../../domain/session/payablePairs';
import { toMicroUnits } from '../../domain/session/sessionLedger';
import type { Mode } from '../../domain/wire/session';
import { rpcDeadline } from '../../activities/http/rpcDeadline';
import { foreignDepositAddressReason, type OwnDepositAddressDeps } from '../backing/depositAddressCheck';
import type { SolanaChainWriterDeps } from '../chainWrites/solanaChainWriter';

export interface RefundBackingDeps extends Omit<OwnDepositAddressDeps, 'sql'>, SolanaChainWriterDeps {
  /** The chains as the indexer watches them: tokens, decimals, required depth. */
  registry: ChainRegistry;
  /** REFUND_MERCHANT_RECEIVABLE_LIMIT_USDC in USDC base units; `pending`: what the service holds for the merchant. */
  merchantReceivableLimit: bigint | 'pending';
}

const refused = (reason: string): RefundVerdict => ({ kind: 'refused', reason });

/**
 * Where the destination may receive: a wallet on the curve, none of the service's own addresses, and on chain no
 * account but a wallet's (a token account, a program, a nonce account would take the transfer and keep it).
 */
export async function judgeDestination(deps: RefundBackingDeps, refund: Refund, treasury: Address): Promise<RefundVerdict> {
  const address = refund.destination?.address ?? '';
  const owner = judgeSolanaOwner(address);
  if (owner.kind === 'refused') return owner;
  if (address === treasury) return refused(`refund ${refund.id}: ${address} is the treasury itself`);
  const [own] = await deps.sql<{ n: number }[]>`
    select (select count(*) from deposit_addresses where solana_address = ${address})
         + (select count(*) from solana_deposit_address_pool where address = ${address}) as n`;
  if (Number(own?.n ?? 0) > 0) return refused(`refund ${refund.id}: ${address} is one of the service's deposit addresses`);
  const { value } = await deps.rpc
    .getAccountInfo(address as Address, { encoding: 'base64', commitment: 'confirmed' })
    .send(rpcDeadline(deps.rpcTimeoutMs));
  if (value && value.owner !== SYSTEM_PROGRAM_ADDRESS)
    return refused(`refund ${refund.id}: ${address} is an account of program ${value.owner}, not a wallet`);
  return { kind: 'backed' };
}

/** Judges the refund's amount as its source backs it; `merchantFee` is what the merchant owes on top of it. */
export async function judgeRefundBacking(
  deps: RefundBackingDeps,
  tx: Queryable,
  refund: Refund,
  merchantFee: bigint,
): Promise<RefundVerdict> {
  await lockUntilCommit(tx, `refund-backing:${refund.sessionId}`);
  const [session] = await tx<{ merchantId: string; mode: Mode }[]>`
    select merchant_id as "merchantId", mode from sessions where id = ${refund.sessionId}`;
  const owner = judgeRefundSession(refund, session);
  if (owner.kind === 'refused') return owner;
  if (refund.source !== 'merchant') return judgeAutomatic(deps, tx, refund);
  // Under the lock a payout of the merchant takes to net the receivable (signer/payouts/treasuryPayout.ts).
  await lockMerchantReceivable(tx, refund.merchantId);
  const [paidOut, refundedBefore, receivable, limit] = await Promise.all([
    sessionPaidOut(tx, refund.sessionId, LANDED_PAYOUTS),
    sessionRefunded(tx, refund.sessionId, 'merchant', refund.id),
    merchantReceivable(tx, refund.merchantId, refund.mode),
    deps.merchantReceivableLimit === 'pending' ? heldForMerchant(tx, refund.merchantId, refund.mode) : deps.merchantReceivableLimit,
  ]);
  return judgeMerchantBacking({ refund, paidOut, refundedBefore, receivable, merchantFee, limit });
}

async function judgeAutomatic(deps: RefundBackingDeps, tx: Queryable, refund: Refund): Promise<RefundVerdict> {
  if (!refund.deposit) return refused(`refund ${refund.id} names no deposit`);
  const { chain } = refund.deposit;
  if (!Object.hasOwn(CHAIN_FACTS, chain)) return refused(`refund ${refund.id}: ${chain} is not a known chain`);
  const network = networkForMode(refund.mode);
  const family = CHAIN_FACTS[chain].family;
  const foreign = await foreignDepositAddressReason({ ...deps, sql: tx }, { sessionId: refund.sessionId, mode: refund.mode }, family);
  if (foreign) return refused(`refund ${refund.id}: ${foreign}`);
  const addresses = await sessionAddresses(tx, refund.sessionId);
  const facts = await sessionDeposits(tx, refund.sessionId, network);
  const deposit = facts.find((f) => f.chain === chain && f.txHash === refund.deposit?.txHash && f.logIndex === refund.deposit?.logIndex);
  const decimals = (c: Chain, token: string) => deps.registry.token(c, network, token as TokenSymbol)?.decimals;
  const toOwnAddress = (f: DepositFact) => {
    const own = addresses[CHAIN_FACTS[f.chain].family];
    return own !== null && (family === 'evm' ? f.toAddress.toLowerCase() === own.toLowerCase() : f.toAddress === own);
  };
  const deepEnough = (f: DepositFact) => f.stage === 'confirmed' && f.confirmations >= deps.registry.get(f.chain, network).confirmations;
  const depositedUsdMicros = facts
    .filter((f) => toOwnAddress(f) && deepEnough(f))
    .reduce((sum, f) => {
      const d = decimals(f.chain, f.token);
      return d === undefined ? sum : sum + toMicroUnits(f.amount, d);
    }, 0n);
  const session: SessionMoney = {
    depositedUsdMicros,
    paidOutUsdMicros: await sessionPaidOut(tx, refund.sessionId, ['pending', 'awaiting_liquidity', 'submitted', ...LANDED_PAYOUTS]),
    refundedUsdMicros: await sessionRefunded(tx, refund.sessionId, 'automatic', refund.id),
  };
  return judgeAutomaticBacking({
    refund,
    network,
    deposit,
    depositAddress: addresses[family],
    requiredConfirmations: deps.registry.get(chain, network).confirmations,
    decimals: decimals(chain, refund.token),
    merchantShare: deposit?.credited ? await merchantShare(tx, refund.sessionId, deposit, (f) => toOwnAddress(f) && deepEnough(f)) : 0n,
    refundedBefore: await depositRefunded(tx, refund.deposit, refund.id),
    sessionHasPayout: await sessionHasPayout(tx, refund.sessionId),
    session,
  });
}

async function sessionHasPayout(tx: Queryable, sessionId: string): Promise<boolean> {
  const [row] = await tx`select 1 from payouts p join payments y on y.id = p.payment_id where y.session_id = ${sessionId} limit 1`;
  return row !== undefined;
}

/** The session's deposit address of each chain family, as stored (foreignDepositAddressReason vouched for the refund's). */
async function sessionAddresses(tx: Queryable, sessionId: string): Promise<Record<'evm' | 'tron' | 'solana', string | null>> {
  const [row] = await tx<{ evm: string | null; tron: string | null; solana: string | null }[]>`
    select evm_address as evm, tron_address as tron, solana_address as solana from deposit_addresses where session_id = ${sessionId}`;
  return row ?? { evm: null, tron: null, solana: null };
}

/** The indexer's rows of the session's deposits on `network`, in the order they arrived. */
async function sessionDeposits(tx: Queryable, sessionId: string, network: Network): Promise<DepositFact[]> {
  const rows = await tx<(Omit<DepositFact, 'amount'> & { amount: string })[]>`
    select chain, network, token, tx_hash as "txHash", log_index as "logIndex", to_address as "toAddress",
           amount_base_units::text as amount, stage, confirmations, credited
    from deposits where session_id = ${sessionId} and network = ${network}
    order by block_number, tx_hash, log_index`;
  return rows.map((r) => ({ ...r, amount: BigInt(r.amount) }));
}

/**
 * Base units of a credited deposit that pay its session's price, as the payout counts them: its share among the
 * payment's credited deposits in the payment's token and chain, at the quoted price. All of it when the payment is not
 * priced, so an unpriced payment's credited deposit refunds nothing.
 */
async function merchantShare(
  tx: Queryable,
  sessionId: string,
  deposit: DepositFact,
  counted: (f: DepositFact) => boolean,
): Promise<bigint> {
  const [payment] = await tx<{ id: string; decimals: number }[]>`select id, decimals from payments where session_id = ${sessionId}`;
  const terms = payment && (await paymentTerms(tx, payment.id));
  if (!payment || !terms || terms.chain !== deposit.chain || terms.token !== deposit.token) return 0n;
  if (terms.expectedBaseUnits <= 0n) return deposit.amount;
  const credited = (await sessionDeposits(tx, sessionId, deposit.network)).filter(
    (f) => f.credited && f.chain === terms.chain && f.token === terms.token && counted(f),
  );
  const index = credited.findIndex((f) => f.txHash === deposit.txHash && f.logIndex === deposit.logIndex);
  if (index < 0) return deposit.amount;
  const shares = depositShares(
    credited.map((f) => f.amount),
    {
      amountUsdCents: terms.amountUsdCents,
      expectedBaseUnits: terms.expectedBaseUnits,
      decimals: payment.decimals,
      bankCents: terms.bankCents,
    },
  );
  return shares[index]?.merchantBaseUnits ?? deposit.amount;
}

/**
 * Payouts that paid their merchant: landed, or netted whole from what it owed. Their gross counts, the part netted
 * from the merchant's receivable too, as it was the merchant's money (docs/refunds.md#funding).
 */
const LANDED_PAYOUTS = ['confirmed', 'finalized', 'netted'];

/** USDC base units the session's payouts in `statuses` pay its merchant, at their gross. */
async function sessionPaidOut(tx: Queryable, sessionId: string, statuses: string[]): Promise<bigint> {
  const [row] = await tx<{ amount: string }[]>`
    select coalesce(sum(po.amount_base_units), 0)::text as amount
    from payouts po join payments p on p.id = po.payment_id
    where p.session_id = ${sessionId} and po.status = any(${statuses})`;
  return BigInt(row?.amount ?? '0');
}

/** An account's Solana USDC balance in the mode's ledger, debits positive. */
async function accountBalance(tx: Queryable, account: string, mode: Mode): Promise<bigint> {
  const [row] = await tx<{ amount: string }[]>`
    select coalesce(sum(amount), 0)::text as amount from ledger_entries
    where account = ${account} and asset = 'usdc:solana' and mode = ${mode}`;
  return BigInt(row?.amount ?? '0');
}

/**
 * What the service holds for a merchant's payouts to come, in USDC base units: what it is owed (merchant_payable) and
 * the units of its sessions' credited deposits pending their payout (merchant_pending), each token's units at one USD
 * micro-unit per 6-decimal unit.
 */
async function heldForMerchant(tx: Queryable, merchantId: string, mode: Mode): Promise<bigint> {
  const payable = -(await accountBalance(tx, ACCOUNT.merchantPayable(merchantId), mode));
  const pending = await tx<{ asset: Asset; amount: string }[]>`
    select le.asset, sum(le.amount)::text as amount
    from ledger_entries le
    join deposits d on le.reference = 'deposit:' || d.chain || ':' || d.tx_hash || ':' || d.log_index
    join sessions s on s.id = d.session_id
    where le.account like 'merchant_pending:%' and le.mode = ${mode} and s.merchant_id = ${merchantId}
    group by le.asset`;
  const pendingMicros = pending.reduce((sum, row) => sum + toMicroUnits(-BigInt(row.amount), assetDecimals(row.asset)), 0n);
  return (payable > 0n ? payable : 0n) + (pendingMicros > 0n ? pendingMicros : 0n);
}
