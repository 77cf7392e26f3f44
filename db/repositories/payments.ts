// payments: one per session, the payment of record whatever the session was paid with (a chosen token and chain, or a
// bank transfer), and what it has received so far.
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import type { Mode } from '../../domain/wire/session';
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
  chain: Chain;
  token: TokenSymbol;
  evm: string | null;
  tron: string | null;
  solana: string | null;
}

/** The payment's chosen pair and its session's deposit addresses, if it belongs to a session of `mode`. */
export async function paymentTerms(sql: Queryable, paymentId: string, mode: Mode): Promise<PaymentTerms | undefined> {
  const [payment] = await sql<PaymentTerms[]>`
    select p.session_id as "sessionId", p.chain, p.token, a.evm_address as evm, a.tron_address as tron, a.solana_address as solana
    from payments p join sessions s on s.id = p.session_id left join deposit_addresses a on a.session_id = p.session_id
    where p.id = ${paymentId} and s.mode = ${mode}`;
  return payment;
}
