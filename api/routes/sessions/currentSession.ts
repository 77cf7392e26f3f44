// GET /checkout/sessions/current: the session the token names, with its payment and deposit progress,
// all from the read model, so the page keeps working while no worker is up.
import { findPayment, findPendingDeposit, type PaymentRecord } from '../../../db/repositories/paymentProgress';
import { findSessionById } from '../../../db/repositories/sessions';
import { CHAIN_FACTS, toTokenChainSet } from '../../../domain/chains/chains';
import type { HostedCheckoutSession, HostedPayment } from '../../../domain/wire/hostedCheckout';
import { centsToUsd } from '../../../domain/money/money';
import { payablePairs } from '../../../domain/session/payablePairs';
import { paymentUri } from '../../../domain/chains/paymentUri';
import { toSixDecimalString } from '../../../domain/money/pricing';
import type { AppDeps, SessionAuth } from '../../context';
import { sessionNotFound } from '../../errors';

export async function currentSession(deps: AppDeps, auth: SessionAuth): Promise<HostedCheckoutSession> {
  const session = await findSessionById(deps.sql, auth.sessionId);
  if (!session) throw sessionNotFound();
  const [payment, deposit] = await Promise.all([findPayment(deps.sql, session.sessionId), findPendingDeposit(deps.sql, session.sessionId)]);
  return {
    session_id: session.sessionId,
    status: session.status,
    amount_usd: centsToUsd(session.amountUsdCents),
    ...(session.merchantCurrency !== null && session.merchantAmount !== null
      ? { merchant_currency: session.merchantCurrency, merchant_amount: Number(session.merchantAmount) }
      : {}),
    supported_methods: session.supportedMethods,
    supported_tokens: toTokenChainSet(payablePairs(deps.registry, deps.offer, session.mode, session.supportedTokens)),
    expires_at: session.expiresAt.toISOString(),
    payment: payment ? presentPayment(payment) : null,
    deposit: deposit ? { confirmations: deposit.confirmations, confirmations_required: CHAIN_FACTS[deposit.chain].confirmations } : null,
  };
}

function presentPayment(p: PaymentRecord): HostedPayment | null {
  if (p.tokenAddress === null) return null;
  const tokenAddress = p.tokenAddress;
  const due = p.expectedBaseUnits > p.receivedBaseUnits ? p.expectedBaseUnits - p.receivedBaseUnits : 0n;
  // The same derivation select-payment used (activities/payments/choosePayment.ts), from the stored inputs.
  const uriFor = (baseUnits: bigint) =>
    paymentUri({
      chain: p.chain,
      ...(p.evmChainId !== null ? { evmChainId: p.evmChainId } : {}),
      tokenAddress,
      depositAddress: p.depositAddress,
      baseUnits,
      decimals: p.decimals,
    });
  const facts = CHAIN_FACTS[p.chain];
  return {
    payment_id: p.paymentId,
    token: p.token,
    chain: p.chain,
    deposit_address: p.depositAddress,
    token_address: tokenAddress,
    amount: toSixDecimalString(p.expectedBaseUnits, p.decimals),
    amount_received: toSixDecimalString(p.receivedBaseUnits, p.decimals),
    amount_due: toSixDecimalString(due, p.decimals),
    payment_uri: uriFor(p.expectedBaseUnits),
    payment_uri_due: uriFor(due > 0n ? due : p.expectedBaseUnits),
    confirmations_required: facts.confirmations,
    estimated_finality_seconds: facts.estimatedFinalitySeconds,
  };
}
