// select-payment's I/O in one database transaction: quote, the session's deposit address (one derivation
// index and one set of addresses per session, reused when the customer changes token or chain), the payment record
// and the indexer watch. Idempotent, so Temporal may retry it freely. A Solana pair needs the address the
// signer derived for the session's index (workflows/paymentPreparation.ts); EVM and Tron pairs never wait on it.
import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import { insertQuote } from '../../db/repositories/quotes';
import { CHAIN_FACTS } from '../../domain/chains';
import { paymentIdForSession } from '../../domain/ids';
import { paymentUri } from '../../domain/paymentUri';
import { baseUnitsForUsd, PriceUnavailableError, toSixDecimalString, tokenPrice, type Rate } from '../../domain/pricing';
import type { SessionRecord } from '../../domain/session';
import type { TokenSymbol } from '../../domain/chains';
import type { PaymentInstructions, PaymentSelection } from '../../domain/payment';
import { WorkflowFailure } from '../../domain/workflowFailures';
import { reserveSessionDepositAddresses, sessionSolanaAddress, type DepositAddressSources } from '../depositAddresses/sessionDepositAddresses';
import { networkForMode } from '../../domain/payablePairs';
import type { PaymentNetwork } from './paymentNetwork';

export interface PaymentDeps extends DepositAddressSources {
  sql: Sql;
  network: PaymentNetwork;
  liveTokenPrices: Partial<Record<TokenSymbol, Rate>>;
}

export function createPreparePayment(deps: PaymentDeps) {
  return async function preparePayment(record: SessionRecord, selection: PaymentSelection, solanaAddressFromSigner?: string): Promise<PaymentInstructions> {
    const network = networkForMode(record.mode);
    const contract = deps.network.tokenContract(selection.token, selection.chain, network);
    if (!contract) {
      throw ApplicationFailure.nonRetryable(`${selection.token} on ${selection.chain} is not available for ${record.mode} payments`, WorkflowFailure.SelectionRefused);
    }
    let price;
    try {
      price = tokenPrice(record.mode, selection.token, deps.liveTokenPrices);
    } catch (error) {
      if (error instanceof PriceUnavailableError) throw ApplicationFailure.nonRetryable(error.message, WorkflowFailure.SelectionRefused);
      throw error;
    }
    const expected = baseUnitsForUsd(BigInt(record.amountUsdCents), contract.decimals, price.rate);
    const family = CHAIN_FACTS[selection.chain].family;
    const paymentId = paymentIdForSession(record.sessionId);

    return deps.sql.begin(async (tx) => {
      const addresses = await reserveSessionDepositAddresses(tx as unknown as Sql, deps, record);
      const depositAddress =
        family === 'evm'
          ? addresses.evm
          : family === 'tron'
            ? addresses.tron
            : await sessionSolanaAddress(tx as unknown as Sql, record.sessionId, addresses.solana, solanaAddressFromSigner);
      const quote = await insertQuote(tx, {
        mode: record.mode,
        sessionId: record.sessionId,
        token: selection.token,
        chain: selection.chain,
        amountUsdCents: BigInt(record.amountUsdCents),
        tokenBaseUnits: expected,
        decimals: contract.decimals,
        rate: price.rate.text,
        priceSource: price.source,
        expiresAt: new Date(record.expiresAt),
      });
      const evmChainId = deps.network.evmChainId(selection.chain, network);
      await tx`
        insert into payments (id, session_id, quote_id, token, chain, deposit_address, expected_base_units, decimals, token_address, evm_chain_id)
        values (${paymentId}, ${record.sessionId}, ${quote.id}, ${selection.token}, ${selection.chain}, ${depositAddress},
                ${expected.toString()}, ${contract.decimals}, ${contract.address}, ${evmChainId ?? null})
        on conflict (session_id) do update set quote_id = excluded.quote_id, token = excluded.token, chain = excluded.chain,
          deposit_address = excluded.deposit_address, expected_base_units = excluded.expected_base_units,
          decimals = excluded.decimals, token_address = excluded.token_address, evm_chain_id = excluded.evm_chain_id, updated_at = now()`;
      // Earlier choices stay watched too: a customer may still pay an address shown to them before. After
      // the session closes its workflow ends, and the indexer alone records what arrives, as late.
      const watchUntil = new Date(Date.parse(record.expiresAt) + record.lateDepositWatchHours * 3_600_000);
      await tx`
        insert into deposit_watches (session_id, chain, network, address, watch_until)
        values (${record.sessionId}, ${selection.chain}, ${network}, ${depositAddress}, ${watchUntil})
        on conflict (session_id, chain) do update set address = excluded.address, watch_until = excluded.watch_until`;
      return {
        payment_id: paymentId,
        quote_id: quote.id,
        token: selection.token,
        chain: selection.chain,
        deposit_address: depositAddress,
        token_address: contract.address,
        amount: toSixDecimalString(expected, contract.decimals),
        amount_base_units: expected.toString(),
        decimals: contract.decimals,
        payment_uri: paymentUri({
          chain: selection.chain,
          ...(evmChainId !== undefined ? { evmChainId } : {}),
          tokenAddress: contract.address,
          depositAddress,
          baseUnits: expected,
          decimals: contract.decimals,
        }),
        confirmations_required: CHAIN_FACTS[selection.chain].confirmations,
        expires_at: record.expiresAt,
      };
    });
  };
}
