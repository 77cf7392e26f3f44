// Every activity the session workflows' worker registers, built from its dependencies (webhook attempts run
// on the webhook worker: worker/createWebhookWorker.ts; whatever needs signing material on the signer worker:
// signer/activities.ts). Workflows import the type only.
import type { Sql } from '../db/client';
import type { Rate } from '../domain/money/pricing';
import type { TokenSymbol } from '../domain/chains/chains';
import { NO_DEPOSIT_FORWARDERS, type DepositForwarders } from '../domain/addresses/depositForwarder';
import type { DepositXpubs } from '../domain/addresses/hdDerivation';
import type { Mailer } from './email/smtpMailer';
import type { PaymentNetwork } from './payments/paymentNetwork';
import { createChoosePayment } from './payments/choosePayment';
import { createConfirmedDepositFacts } from './payments/confirmedDepositFacts';
import { createUnmatchedDepositCredit } from './payments/creditUnmatchedDeposit';
import { createRecordedDepositFacts } from './payments/recordedDepositFacts';
import { createRecordBankReceipt } from './payments/recordBankReceipt';
import { createRecordDeposit } from './payments/recordDeposit';
import { createRecordSimulatedReceipt } from './payments/recordSimulatedReceipt';
import { createReadModelActivities } from './readModel';
import { createExpireRefund } from './refunds/expireRefund';
import { createRefundPaymentRecords } from './refunds/refundPaymentRecords';
import { createRefundProgress } from './refunds/refundProgress';
import { createRefundWebhooks } from './refunds/refundWebhooks';
import { createRefundUnderpaidSession } from './refunds/underpaidExpiry';
import { createBankSettlement } from './settlement/bankSettlement';
import { createLiquidityWaitActivities } from './settlement/liquidityWait';
import { createSimulatedSettlement } from './settlement/simulatedSettlement';
import { createTreasurySettlementActivities } from './settlement/treasurySettlement';
import { DEFAULT_LIVE_ROUTES, parseLiveRoutes, type LiveRoute } from '../domain/settlement/settlementRoute';
import { createWebhookRecords } from './webhooks/webhookActivities';

export interface ActivityDeps {
  sql: Sql;
  /** Public material only: the worker derives EVM and Tron deposit addresses; the signer holds the seeds. */
  depositXpubs: DepositXpubs;
  /** Live HD addresses only from xpubs the live signer published as its own (domain/addresses/xpubFingerprint.ts). */
  checkLiveSignerFingerprint?: boolean;
  /** Where a mode has a factory, new sessions' EVM or Tron address is their forwarder clone; none by default (HD). */
  depositForwarders?: DepositForwarders;
  liveTokenPrices: Partial<Record<TokenSymbol, Rate>>;
  /** Token contracts and chain ids per network, from the chain registry (tests may pass their own). */
  paymentNetwork: PaymentNetwork;
  /** The live pairs the treasury settles; SETTLEMENT_LIVE_ROUTES' default unless given. */
  settlementLiveRoutes?: readonly LiveRoute[];
  /** REFUND_CLAIM_DAYS: how long a customer has to claim a refund the service opened; its default unless given. */
  refundClaimDays?: number;
  /** Sends refunds' customer e-mails (SMTP_URL); none: no e-mail is sent. */
  mailer?: Mailer;
}

/** REFUND_CLAIM_DAYS' default (config/env.ts). */
export const DEFAULT_REFUND_CLAIM_DAYS = 30;

export function createActivities(deps: ActivityDeps) {
  const paymentDeps = {
    sql: deps.sql,
    network: deps.paymentNetwork,
    depositXpubs: deps.depositXpubs,
    depositForwarders: deps.depositForwarders ?? NO_DEPOSIT_FORWARDERS,
    checkLiveSignerFingerprint: deps.checkLiveSignerFingerprint ?? false,
    liveTokenPrices: deps.liveTokenPrices,
  };
  return {
    ...createReadModelActivities({ sql: deps.sql }),
    choosePayment: createChoosePayment(paymentDeps),
    recordDeposit: createRecordDeposit({ sql: deps.sql, refundClaimDays: deps.refundClaimDays ?? DEFAULT_REFUND_CLAIM_DAYS }),
    refundUnderpaidSession: createRefundUnderpaidSession({
      sql: deps.sql,
      refundClaimDays: deps.refundClaimDays ?? DEFAULT_REFUND_CLAIM_DAYS,
    }),
    confirmedDepositFacts: createConfirmedDepositFacts({ sql: deps.sql }),
    recordedDepositFacts: createRecordedDepositFacts({ sql: deps.sql }),
    ...createUnmatchedDepositCredit({
      sql: deps.sql,
      network: deps.paymentNetwork,
      refundClaimDays: deps.refundClaimDays ?? DEFAULT_REFUND_CLAIM_DAYS,
    }),
    recordBankReceipt: createRecordBankReceipt({ sql: deps.sql }),
    recordSimulatedReceipt: createRecordSimulatedReceipt({ sql: deps.sql }),
    settleSimulated: createSimulatedSettlement({ sql: deps.sql }),
    settleBankPart: createBankSettlement({ sql: deps.sql }),
    ...createTreasurySettlementActivities({ sql: deps.sql, liveRoutes: deps.settlementLiveRoutes ?? parseLiveRoutes(DEFAULT_LIVE_ROUTES) }),
    ...createLiquidityWaitActivities({ sql: deps.sql }),
    ...createWebhookRecords({ sql: deps.sql }),
    refundProgress: createRefundProgress({ sql: deps.sql }),
    expireRefund: createExpireRefund({ sql: deps.sql }),
    ...createRefundPaymentRecords({ sql: deps.sql }),
    ...createRefundWebhooks({ sql: deps.sql, mailer: deps.mailer }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
