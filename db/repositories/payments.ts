// payments: one per session, the payment of record whatever the session was paid with (a chosen token and chain, or a
// bank transfer), and what it has received so far.
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import type { Mode } from '../../domain/wire/session';
import type { SessionStatus } from '../../domain/wire/status';
import type { Queryable } from '../client';

export interface ChosenPayment {
  paymentId: string;
  sessionId: string;
  quoteId: string;
  token: TokenSymbol;
  chain: Chain;
  depositAddress: string;
  expectedBaseUnits: bigint;
  decimals: number;
  tokenAddress: string;
  evmChainId: number | undefined;
}

/**
 * A new choice replaces the quote, pair and address the earlier one had, and counts its own deposits from zero (a choice
 * is refused once a deposit was seen; a bank payment's receipts stay in bank_receipts); not awaited here so it can be
 * pipelined.
 */
export function upsertChosenPayment(sql: Queryable, p: ChosenPayment) {
  return sql`
    insert into payments (id, session_id, quote_id, token, chain, deposit_address, expected_base_units, decimals, token_address, evm_chain_id)
    values (${p.paymentId}, ${p.sessionId}, ${p.quoteId}, ${p.token}, ${p.chain}, ${p.depositAddress},
            ${p.expectedBaseUnits.toString()}, ${p.decimals}, ${p.tokenAddress}, ${p.evmChainId ?? null})
    on conflict (session_id) do update set quote_id = excluded.quote_id, token = excluded.token, chain = excluded.chain,
      deposit_address = excluded.deposit_address, expected_base_units = excluded.expected_base_units,
      decimals = excluded.decimals, token_address = excluded.token_address, evm_chain_id = excluded.evm_chain_id,
      received_base_units = 0, updated_at = now()`;
}

/**
 * A bank transfer as the session's payment of record when it has none yet, in USDC base units; a later receipt
 * updates what a bank payment received. A chosen token and chain are never replaced: the receipts themselves are in
 * bank_receipts.
 */
export async function recordBankPaymentRow(
  sql: Queryable,
  p: { paymentId: string; sessionId: string; chain: string; reference: string; expectedBaseUnits: string; receivedBaseUnits: string },
): Promise<void> {
  await sql`
    insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
    values (${p.paymentId}, ${p.sessionId}, 'USDC', ${p.chain}, ${p.reference},
            ${p.expectedBaseUnits}, ${p.receivedBaseUnits}, 6)
    on conflict (session_id) do update set received_base_units = excluded.received_base_units, updated_at = now()
    where payments.chain = ${p.chain}`;
}

export async function setPaymentReceived(sql: Queryable, paymentId: string, receivedBaseUnits: string): Promise<void> {
  await sql`update payments set received_base_units = ${receivedBaseUnits}, updated_at = now() where id = ${paymentId}`;
}

export interface PaymentTerms {
  sessionId: string;
  /** The session's merchant, mode, status and amount: written by the API, never by the worker's role. */
  merchantId: string;
  mode: Mode;
  status: SessionStatus;
  amountUsdCents: bigint;
  chain: Chain;
  token: TokenSymbol;
  /** The token amount the chosen quote asked for (the worker's role writes it with the choice). */
  expectedBaseUnits: bigint;
  /** Credited bank transfers of the session, in USD cents. */
  bankCents: bigint;
  /** The payment's payout part of the settlements row, once the settlement workflow began it. */
  settlement?: { provider: string; status: 'pending' | 'settled' };
  evm: string | null;
  tron: string | null;
  solana: string | null;
}

/** The payment's session, chosen pair, deposit addresses and settlement, whatever the session's mode. */
export async function paymentTerms(sql: Queryable, paymentId: string): Promise<PaymentTerms | undefined> {
  const [row] = await sql<
    Array<
      Omit<PaymentTerms, 'amountUsdCents' | 'expectedBaseUnits' | 'bankCents' | 'settlement'> & {
        amountUsdCents: string;
        expectedBaseUnits: string;
        bankCents: string;
        settlementProvider: string | null;
        settlementStatus: 'pending' | 'settled' | null;
      }
    >
  >`
    select p.session_id as "sessionId", s.merchant_id as "merchantId", s.mode, s.status, s.amount_usd_cents::text as "amountUsdCents",
           p.chain, p.token, p.expected_base_units::text as "expectedBaseUnits",
           (select coalesce(sum(b.amount_usd_cents), 0) from bank_receipts b where b.session_id = s.id and b.credited)::text as "bankCents",
           st.provider as "settlementProvider", st.status as "settlementStatus",
           a.evm_address as evm, a.tron_address as tron, a.solana_address as solana
    from payments p join sessions s on s.id = p.session_id left join deposit_addresses a on a.session_id = p.session_id
    left join settlements st on st.payment_id = p.id and st.part = 'payout'
    where p.id = ${paymentId}`;
  if (!row) return undefined;
  const { settlementProvider, settlementStatus, ...terms } = row;
  return {
    ...terms,
    amountUsdCents: BigInt(row.amountUsdCents),
    expectedBaseUnits: BigInt(row.expectedBaseUnits),
    bankCents: BigInt(row.bankCents),
    ...(settlementProvider && settlementStatus ? { settlement: { provider: settlementProvider, status: settlementStatus } } : {}),
  };
}
