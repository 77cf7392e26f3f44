// select-payment's whole database side, one local activity: the quote, the session's deposit address (one derivation
// index and one set of addresses per session, reused when the customer changes token or chain), the payment record,
// the indexer's watches and, on the session's first choice, its move to awaiting_payment. Two round trips to Postgres:
// the addresses looked up (or an index reserved) in one statement, then every write pipelined in one transaction.
// A Solana pair whose address the signer has not derived yet answers with the index instead, and the workflow asks
// the signer and calls again (workflows/paymentPreparation.ts). Idempotent, so Temporal may retry it freely.
import { ApplicationFailure, log, metricMeter } from '@temporalio/activity';
import { pipelined, transactionInOneRoundTrip, type Sql } from '../../db/client';
import { upsertDepositWatch } from '../../db/repositories/depositWatches';
import { upsertChosenPayment } from '../../db/repositories/payments';
import { quoteInsert } from '../../db/repositories/quotes';
import { statusChangeUpdate } from '../../db/repositories/sessions';
import { CHAIN_FACTS, type TokenSymbol } from '../../domain/chains/chains';
import { newQuoteId, paymentIdForSession } from '../../domain/wire/ids';
import { networkForMode } from '../../domain/session/payablePairs';
import type { PaymentInstructions, PaymentSelection } from '../../domain/wire/payment';
import { paymentUri } from '../../domain/chains/paymentUri';
import { baseUnitsForUsd, PriceUnavailableError, toSixDecimalString, tokenPrice, type Rate } from '../../domain/money/pricing';
import type { SessionRecord, SessionStatusChange } from '../../domain/wire/session';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { chooseSolanaDepositAddress } from '../../domain/addresses/solanaDepositAddressChoice';
import {
  lookUpSessionDepositAddresses,
  sessionDepositAddressWrites,
  type DepositAddressSources,
} from '../depositAddresses/sessionDepositAddresses';
import type { PaymentNetwork } from './paymentNetwork';

export interface PaymentDeps extends DepositAddressSources {
  sql: Sql;
  network: PaymentNetwork;
  liveTokenPrices: Partial<Record<TokenSymbol, Rate>>;
}

export type PaymentChoice = {
  record: SessionRecord;
  selection: PaymentSelection;
  /** The session's move to awaiting_payment, written with the payment, when this is its first choice. */
  statusChange?: SessionStatusChange;
  /**
   * What the signer's task queue answered for the session's index, once an earlier call asked for it: only the cue to
   * read the pool again (domain/addresses/solanaDepositAddressChoice.ts).
   */
  solanaAddressFromSigner?: string;
};

export type ChosenPayment = { prepared: PaymentInstructions } | { solanaAddressNeeded: { index: number } };

/**
 * The instants sent, checked first: postgres.js cannot send an invalid Date, and in a pipeline its error lands on the
 * statement in flight instead of this one (postgres 3.4.9, connection.js execute), leaving the transaction waiting.
 */
function instant(text: string, what: string): Date {
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) throw new Error(`${what} is not a valid instant: ${JSON.stringify(text)}`);
  return at;
}

const refused = (message: string) => ApplicationFailure.nonRetryable(message, WorkflowFailure.SelectionRefused);

/** An answer from the signer's task queue that the pool does not hold: someone else may be polling that queue. */
function unrecordedAnswer(record: SessionRecord, index: number, answered: string, reason: string) {
  metricMeter
    .createCounter(
      'checkout_solana_addresses_unrecorded',
      'answers',
      "Solana deposit addresses answered on the signer's task queue that the signer did not record: not shown",
    )
    .add(1, { mode: record.mode });
  log.error("a Solana deposit address answered on the signer's task queue is not the one the signer recorded: not shown", {
    sessionId: record.sessionId,
    mode: record.mode,
    index,
    answered,
    reason,
  });
}

export function createChoosePayment(deps: PaymentDeps) {
  return async function choosePayment({ record, selection, statusChange, solanaAddressFromSigner }: PaymentChoice): Promise<ChosenPayment> {
    const network = networkForMode(record.mode);
    const contract = deps.network.tokenContract(selection.token, selection.chain, network);
    if (!contract) throw refused(`${selection.token} on ${selection.chain} is not available for ${record.mode} payments`);
    let price;
    try {
      price = tokenPrice(record.mode, selection.token, deps.liveTokenPrices);
    } catch (error) {
      if (error instanceof PriceUnavailableError) throw refused(error.message);
      throw error;
    }
    const expected = baseUnitsForUsd(BigInt(record.amountUsdCents), contract.decimals, price.rate);
    const family = CHAIN_FACTS[selection.chain].family;
    const expiresAt = instant(record.expiresAt, "the session's expiry");
    if (statusChange) instant(statusChange.at, "the status change's time");

    const addresses = await lookUpSessionDepositAddresses(deps.sql, deps, record);
    let solana: string | null = null;
    if (family === 'solana') {
      const choice = chooseSolanaDepositAddress({
        sessionId: record.sessionId,
        index: addresses.index,
        stored: addresses.solana,
        pooled: addresses.pooledSolana,
        answered: solanaAddressFromSigner,
      });
      if ('refused' in choice) {
        unrecordedAnswer(record, addresses.index, solanaAddressFromSigner ?? '', choice.refused);
        throw ApplicationFailure.nonRetryable(choice.refused, WorkflowFailure.SolanaAddressUnrecorded);
      }
      if ('address' in choice) {
        if (choice.unrecordedAnswer !== undefined)
          unrecordedAnswer(record, addresses.index, choice.unrecordedAnswer, `the signer recorded ${choice.address}, which is shown`);
        solana = choice.address;
      }
    }
    const depositAddress = family === 'evm' ? addresses.evm : family === 'tron' ? addresses.tron : solana;
    if (depositAddress === null) {
      // The reserved index is stored first, so the signer's answer is for the index this session keeps.
      if (addresses.reserved) await pipelined(sessionDepositAddressWrites(deps.sql, deps, record, addresses, null));
      return { solanaAddressNeeded: { index: addresses.index } };
    }

    const paymentId = paymentIdForSession(record.sessionId);
    const quoteId = newQuoteId();
    const evmChainId = deps.network.evmChainId(selection.chain, network);
    // Earlier choices stay watched too: a customer may still pay an address shown to them before. After the session
    // closes its workflow ends, and the indexer alone records what arrives, as late. An EVM address is watched on every
    // EVM chain, where the same address receives a payment sent on the wrong chain.
    const watchUntil = new Date(expiresAt.getTime() + record.lateDepositWatchHours * 3_600_000);
    await transactionInOneRoundTrip(deps.sql, (tx) => [
      ...sessionDepositAddressWrites(tx, deps, record, addresses, solana),
      quoteInsert(tx, quoteId, {
        mode: record.mode,
        sessionId: record.sessionId,
        token: selection.token,
        chain: selection.chain,
        amountUsdCents: BigInt(record.amountUsdCents),
        tokenBaseUnits: expected,
        decimals: contract.decimals,
        rate: price.rate.text,
        priceSource: price.source,
        expiresAt,
      }),
      // One payment per session: a new choice replaces the quote, pair and address the earlier one had.
      upsertChosenPayment(tx, {
        paymentId,
        sessionId: record.sessionId,
        quoteId,
        token: selection.token,
        chain: selection.chain,
        depositAddress,
        expectedBaseUnits: expected,
        decimals: contract.decimals,
        tokenAddress: contract.address,
        evmChainId,
      }),
      ...deps.network
        .watchedChains(selection.chain, network)
        .map((chain) => upsertDepositWatch(tx, { sessionId: record.sessionId, chain, network, address: depositAddress, watchUntil })),
      ...(statusChange ? [statusChangeUpdate(tx, statusChange)] : []),
    ]);
    return {
      prepared: {
        payment_id: paymentId,
        quote_id: quoteId,
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
      },
    };
  };
}
