// Read-model rows → the contract's response shapes (spec 2.2–2.4).
import type { Config } from '../../../config/env';
import type { SessionView } from '../../../db/repositories/sessions';
import { complementPairs, toTokenChainSet } from '../../../domain/chains';
import { centsToUsd } from '../../../domain/money';
import type { CheckoutSession, CreateSessionResponse, Transaction } from '../../../domain/session';
import { issueSessionToken } from '../../../domain/sessionToken';

export function presentCreatedSession(
  session: { sessionId: string; expiresAt: Date; createdAt: Date },
  config: Pick<Config, 'publicBaseUrl' | 'sessionTokenSecret'>,
): CreateSessionResponse {
  const checkoutUrl = `${config.publicBaseUrl}/checkout/${session.sessionId}`;
  const token = issueSessionToken(session.sessionId, config.sessionTokenSecret);
  return {
    session_id: session.sessionId,
    checkout_url: checkoutUrl,
    checkout_url_with_token: `${checkoutUrl}?token=${encodeURIComponent(token)}`,
    expires_at: session.expiresAt.toISOString(),
    created_at: session.createdAt.toISOString(),
  };
}

export function presentSession(v: SessionView): CheckoutSession {
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
    supported_tokens: toTokenChainSet(v.supportedTokens),
    unsupported_tokens: toTokenChainSet(complementPairs(v.supportedTokens)),
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
