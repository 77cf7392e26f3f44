// The payout's own check that the money it pays out arrived, for the merchant it pays
// (docs/settlement.md#r3-paid-on-the-indexers-facts), run by the signer right before the payout row is written: the
// request must name the payment's own merchant and mode, for a pair the signer's configuration settles by the treasury
// (domain/settlement/payoutBinding.ts), and ask for exactly what the credited deposits owe at the quoted price. It runs in the signer, not in a main-worker activity before
// it, because the signer is the process that moves money: a check in another process could be skipped by anyone who
// can start the payout activity on the signer's queue, which is exactly who a forged signal comes from. The signer
// reads the indexer's deposits rows (no workflow activity writes their facts, db/serviceRoles.ts) and asks the chain's
// node itself: for every live payout, from a provider other than the indexer's, and for a test one above a configured
// amount. A node that has not yet seen a deposit, or not as deep, is waited on
// (a retryable DepositRereadPending the payout activity's retry policy retries) for REREAD_WAIT_MS from the
// activity's first attempt; a node that contradicts the indexer refuses at once.
import { activityInfo, ApplicationFailure, log, metricMeter } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import { sessionDepositFacts } from '../../db/repositories/deposits';
import { paymentTerms } from '../../db/repositories/payments';
import { sessionDepositsRefunded } from '../../db/repositories/refundPayouts';
import {
  judgeChainReading,
  judgeDepositBacking,
  liveRereadGaps,
  needsChainReread,
  REREAD_WAIT_MS,
} from '../../domain/settlement/depositBacking';
import { ConfigError } from '../../config/env';
import type { ChainRegistry } from '../../domain/chains/chainRegistry';
import { CHAIN_FACTS } from '../../domain/chains/chains';
import { networkForMode } from '../../domain/session/payablePairs';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { judgePayoutAmount, judgePayoutBinding, payoutOwed } from '../../domain/settlement/payoutBinding';
import { settlementRoute, type LiveRoute } from '../../domain/settlement/settlementRoute';
import type { PayoutRequest, VerifyDepositBacking } from '../payouts/treasuryPayout';
import { foreignDepositAddressReason, type OwnDepositAddressDeps } from './depositAddressCheck';
import { createDepositRereaders, type DepositRereaderDeps } from './depositRereaders';

export interface DepositBackingDeps extends OwnDepositAddressDeps, DepositRereaderDeps {
  sql: Sql;
  /** The chains as the indexer watches them: tokens, decimals, required depth, RPC endpoints. */
  registry: ChainRegistry;
  /** SETTLEMENT_RPC_RECHECK_ABOVE_USDC in USDC base units: test payouts above it are re-read from the chain (live ones all are). */
  rereadAboveUsdcBaseUnits: bigint;
  /** SETTLEMENT_LIVE_ROUTES: the pairs the live treasury pays out, as the signer itself was configured. */
  liveRoutes: readonly LiveRoute[];
}

function refuse(request: PayoutRequest, chain: string, source: 'binding' | 'indexer' | 'chain', reason: string) {
  metricMeter
    .createCounter(
      'checkout_payouts_refused_unbacked',
      'payouts',
      'Payouts refused because no indexer fact (or, above the threshold, the chain) backs them: possible forgery',
    )
    .add(1, { chain, source });
  log.error(
    source === 'binding'
      ? "payout refused: not a treasury payout of the payment's merchant"
      : 'payout refused: not backed by confirmed deposits',
    {
      paymentId: request.paymentId,
      mode: request.mode,
      chain,
      source,
      reason,
    },
  );
  return ApplicationFailure.nonRetryable(reason, WorkflowFailure.PayoutRefused);
}

/**
 * The checks on the database's record alone, at writing or at signing: what the request binds to, and the amount
 * the indexer's credited deposits owe; the chain's re-read is left to the caller.
 */
async function judgeRecord(deps: DepositBackingDeps, request: PayoutRequest, amount: bigint, stage: 'writing' | 'signing') {
  const network = networkForMode(request.mode);
  const payment = await paymentTerms(deps.sql, request.paymentId);
  if (!payment)
    throw refuse(
      request,
      'unknown',
      'binding',
      `payment ${request.paymentId} has no session with a chosen token and chain; nothing backs its payout`,
    );
  const { chain, token } = payment;
  if (!Object.hasOwn(CHAIN_FACTS, chain))
    throw refuse(request, 'unknown', 'indexer', `payment ${request.paymentId} names no known chain; nothing backs its payout`);
  const route = settlementRoute({ mode: payment.mode, chain, token, backing: 'chain' }, deps.liveRoutes);
  const binding = judgePayoutBinding(request, { ...payment, paymentId: request.paymentId, route }, stage);
  if (binding.kind === 'refused') throw refuse(request, chain, 'binding', binding.reason);
  const foreign = await foreignDepositAddressReason(deps, payment, CHAIN_FACTS[chain].family);
  if (foreign) throw refuse(request, chain, 'binding', `payment ${request.paymentId}: ${foreign}; not paid`);
  const deployment = deps.registry.get(chain, network);
  const tokenDeployment = deps.registry.token(chain, network, token);
  if (!tokenDeployment)
    throw refuse(
      request,
      chain,
      'indexer',
      `payment ${request.paymentId}: ${token} is not watched on ${chain} ${network}; nothing backs its payout`,
    );
  const facts = await sessionDepositFacts(deps.sql, payment.sessionId);
  const verdict = judgeDepositBacking(
    {
      paymentId: request.paymentId,
      chain,
      network,
      token,
      decimals: tokenDeployment.decimals,
      depositAddress: payment[CHAIN_FACTS[chain].family],
      requiredConfirmations: deployment.confirmations,
      payoutUsdcBaseUnits: amount,
      refundedUsdMicros: await sessionDepositsRefunded(deps.sql, payment.sessionId, chain, token),
    },
    facts.map((f) => ({ ...f, amount: BigInt(f.amount) })),
  );
  if (verdict.kind === 'refused') throw refuse(request, chain, 'indexer', verdict.reason);
  // The price is the quote's (payments.expected_base_units, which the worker's role writes with the choice) against the
  // session's amount (which it cannot): a forged quote moves at most how much of the session's amount the deposits
  // pay, never past it, and the deposits themselves are the indexer's, re-read from the chain below.
  if (payment.expectedBaseUnits <= 0n)
    throw refuse(request, chain, 'binding', `payment ${request.paymentId} has no quoted amount; nothing prices its payout`);
  const owed = payoutOwed(
    verdict.deposits.filter((f) => f.credited).map((f) => f.amount),
    {
      amountUsdCents: payment.amountUsdCents,
      expectedBaseUnits: payment.expectedBaseUnits,
      decimals: tokenDeployment.decimals,
      bankCents: payment.bankCents,
    },
  );
  const owes = judgePayoutAmount(request.paymentId, amount, owed);
  if (owes.kind === 'refused') throw refuse(request, chain, 'indexer', owes.reason);
  return { payment, chain, network, deployment, tokenDeployment, deposits: verdict.deposits };
}

export function createDepositBackingCheck(deps: DepositBackingDeps): VerifyDepositBacking {
  const rereaders = createDepositRereaders(deps);
  return async function verifyDepositBacking(request, amount) {
    const { payment, chain, network, deployment, tokenDeployment, deposits } = await judgeRecord(deps, request, amount, 'writing');
    if (!needsChainReread(payment.mode, amount, deps.rereadAboveUsdcBaseUnits)) return;
    const reader = rereaders.readerFor(chain, payment.mode);
    if (!reader) {
      const which =
        payment.mode === 'live'
          ? "a live payout is re-read from a provider other than the indexer's"
          : `a payout above ${deps.rereadAboveUsdcBaseUnits} USDC base units is re-read from the chain`;
      throw refuse(
        request,
        chain,
        'chain',
        `payment ${request.paymentId}: ${which}, and the signer cannot re-read ${chain} ${network} deposits (${rereaders.missing(chain, payment.mode)}); not paid`,
      );
    }
    // The activity's first attempt, not this one: retries while a node catches up do not restart the bound.
    const waitedMs = Date.now() - activityInfo().scheduledTimestampMs;
    for (const fact of deposits) {
      const reading = await reader({
        txHash: fact.txHash,
        logIndex: fact.logIndex,
        owner: payment[CHAIN_FACTS[chain].family] as string,
        token: tokenDeployment.address,
      });
      const judged = judgeChainReading(fact, reading, deployment.confirmations, waitedMs);
      if (judged.kind === 'refused') throw refuse(request, chain, 'chain', `payment ${request.paymentId}: ${judged.reason}; not paid`);
      if (judged.kind === 'wait') {
        log.warn('payout waits: the re-read node has not caught up with the indexer', {
          paymentId: request.paymentId,
          mode: request.mode,
          chain,
          reason: judged.reason,
          waitedMs,
          boundMs: REREAD_WAIT_MS,
        });
        throw ApplicationFailure.retryable(`payment ${request.paymentId}: ${judged.reason}; waiting`, WorkflowFailure.DepositRereadPending);
      }
    }
  };
}

/**
 * The check each signature of a payout makes of the row it signs (docs/settlement.md#paid-only-on-the-indexers-facts):
 * the row is the worker's role's to write, so its amount, merchant and mode must still be what the payment's record and
 * the indexer's credited deposits say. The chain was re-read when the row was written.
 */
export function createSigningCheck(deps: DepositBackingDeps): VerifyDepositBacking {
  return async (request, amount) => {
    await judgeRecord(deps, request, amount, 'signing');
  };
}

/**
 * Refuses to start a signer holding a live treasury key unless every chain of SETTLEMENT_LIVE_ROUTES can be re-read
 * from a provider other than the indexer's (docs/settlement.md#paid-only-on-the-indexers-facts): otherwise each live
 * payout on it would be refused at payout time, after the customer paid.
 */
export function requireLiveRereadProviders(deps: Pick<DepositBackingDeps, 'registry' | 'tronHttpApi' | 'liveRoutes'>): void {
  const gaps = liveRereadGaps(
    deps.liveRoutes.map((route) => route.chain),
    { rpcUrls: (chain) => deps.registry.get(chain, 'mainnet').rpcUrls, tronHttpApi: deps.tronHttpApi?.mainnet !== undefined },
  );
  if (gaps.length === 0) return;
  throw new ConfigError(
    `invalid configuration: ${gaps
      .map((gap) =>
        gap.variable.startsWith('TRON_')
          ? `${gap.variable}: is required by SOLANA_TREASURY_KEY_LIVE, as live payouts of ${gap.chain} deposits (SETTLEMENT_LIVE_ROUTES) re-read them from it`
          : `${gap.variable}: needs a second, distinct URL (another provider than the indexer's first) for SOLANA_TREASURY_KEY_LIVE, as live payouts of ${gap.chain} deposits (SETTLEMENT_LIVE_ROUTES) re-read them from it`,
      )
      .join('; ')}`,
  );
}
