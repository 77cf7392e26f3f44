// Read-model rows → the response shapes of docs/api.md#sessions-and-transactions.
import { requireSessionTokenSecret, type Config } from '../../../config/env';
import type { SessionView } from '../../../db/repositories/sessions';
import type { ChainRegistry } from '../../../domain/chains/chainRegistry';
import { complementPairs, toTokenChainSet } from '../../../domain/chains/chains';
import { centsToUsd } from '../../../domain/money/money';
import { payablePairs, type PaymentOffer } from '../../../domain/session/payablePairs';
import type { CheckoutSession, CreateSessionResponse, Transaction } from '../../../domain/wire/session';
import { issueSessionToken } from '../../../domain/security/sessionToken';

export function presentCreatedSession(
  session: { sessionId: string; expiresAt: Date; createdAt: Date },
  config: Pick<Config, 'publicBaseUrl' | 'sessionTokenSecret'>,
): CreateSessionResponse {
  const checkoutUrl = `${config.publicBaseUrl}/checkout/${session.sessionId}`;
  const token = issueSessionToken(session.sessionId, requireSessionTokenSecret(config));
  return {
    session_id: session.sessionId,
    checkout_url: checkoutUrl,
    checkout_url_with_token: `${checkoutUrl}?token=${encodeURIComponent(token)}`,
    expires_at: session.expiresAt.toISOString(),
    created_at: session.createdAt.toISOString(),
  };
}

/** `registry` and `offer` decide which of the session's pairs are payable (payablePairs), as select-payment does. */
export function presentSession(v: SessionView, registry: ChainRegistry, offer: PaymentOffer): CheckoutSession {
  const supported = payablePairs(registry, offer, v.mode, v.supportedTokens);
  return {
    session_id: v.sessionId,
    merchant_id: v.merchantId,
    transaction_id: v.extTransactionId,
    amount_usd: centsToUsd(v.amountUsdCents),
    ...(v.merchantCurrency !== null && v.merchantAmount !== null
      ? { merchant_currency: v.merchantCurrency, merchant_amount: Number(v.merchantAmount) }
      : {}),
    status: v.status,
    supported_methods: v.supportedMethods,
    supported_tokens: toTokenChainSet(supported),
    unsupported_tokens: toTokenChainSet(complementPairs(supported)),
    expires_at: v.expiresAt.toISOString(),
    created_at: v.createdAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
    metadata: v.metadata,
  };
}

export function presentTransaction(v: SessionView): Transaction {
  return {
    transaction_id: v.transactionId,
    merchant_id: v.merchantId,
    status: v.status,
    ext_transaction_id: v.extTransactionId,
    session_id: v.sessionId,
    expires_at: v.expiresAt.toISOString(),
    created_at: v.createdAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
  };
}
