// The session workflow's activities, grouped by what they do, each group with the retry policy its job needs. The
// timeouts are set for recovery after a crash (docs/operations.md): an attempt whose worker died is retried once its
// start-to-close (quick calls) or its heartbeat timeout (calls that wait, activities/heartbeating.ts) has passed, so
// both are seconds. Temporal matches a replayed command on its activity type and id, not its options: changing them
// needs no patch.
import { proxyActivities, proxyLocalActivities, workflowInfo, type ActivityOptions, type LocalActivityOptions } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { SignerActivities } from '../signer/activities';
import { signerTaskQueue } from '../domain/taskQueues';
import { WorkflowFailure } from '../domain/session/workflowFailures';
import type { Mode } from '../domain/wire/session';

/** Activities that beat (activities/heartbeating.ts) every 2 s: one whose beats stop for this long is retried. */
export const HEARTBEAT_TIMEOUT = '10 seconds';

/** Options a proxy of either kind takes. */
type EitherActivityOptions = ActivityOptions & LocalActivityOptions;

/** Each write is a few statements (milliseconds): 10 s is ample under load and is all a dead worker's write is waited for. */
const RECORDS_OPTIONS: EitherActivityOptions = {
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};

/** Read-model and ledger writes: a decision the workflow made must reach Postgres, so they retry without limit. */
export const records = proxyActivities<Activities>(RECORDS_OPTIONS);

/**
 * The same writes run inside the workflow task that asks for them, where a customer waits on the answer
 * (select-payment): a local activity costs no round trip through the Temporal server and no second workflow task.
 */
export const recordsInTask = proxyLocalActivities<Activities>(RECORDS_OPTIONS);

/** The API waits 15 s for select-payment: a dead worker's attempt must be retried well inside that. */
const PAYMENT_SETUP_OPTIONS: EitherActivityOptions = {
  startToCloseTimeout: '5 seconds',
  retry: { initialInterval: '200 milliseconds', maximumAttempts: 5, nonRetryableErrorTypes: [WorkflowFailure.SelectionRefused] },
};

/**
 * select-payment answers a waiting customer: a few quick tries, then the update fails. Local activities, for the
 * reason recordsInTask gives.
 */
export const paymentSetup = proxyLocalActivities<Activities>(PAYMENT_SETUP_OPTIONS);

/**
 * What needs signing material, on the queue of the signer of the work's mode (domain/taskQueues.ts): a test
 * session never reaches the live signer, nor a live one the test signer. With select-payment's quick tries: a
 * signer nobody runs fails the customer's choice within seconds instead of leaving it hanging.
 */
export const signer = (mode: Mode) =>
  proxyActivities<SignerActivities>({
    taskQueue: signerTaskQueue(workflowInfo().taskQueue, mode),
    startToCloseTimeout: '5 seconds',
    scheduleToCloseTimeout: '30 seconds',
    retry: { initialInterval: '200 milliseconds', maximumAttempts: 5 },
  });

/**
 * A treasury payout on the signer worker (workflows/settlePayment.ts): each pass is short and resumable, and a
 * payment once credited must be paid however long the signer is away, so it retries without limit; only a payout
 * the signer refuses (a merchant without a wallet, a second amount) is final.
 */
export const payouts = (mode: Mode) =>
  proxyActivities<SignerActivities>({
    taskQueue: signerTaskQueue(workflowInfo().taskQueue, mode),
    startToCloseTimeout: '2 minutes',
    heartbeatTimeout: HEARTBEAT_TIMEOUT,
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '1 minute',
      nonRetryableErrorTypes: [WorkflowFailure.PayoutRefused],
    },
  });

/**
 * Deposit sweeps on the signer worker (workflows/sweepSolanaUsdc.ts, sweepEvmDeposits.ts): short resumable passes like a payout's. They
 * retry without limit, as a sweep written ahead must be carried to its end; the schedule skips runs meanwhile.
 */
export const sweeps = (mode: Mode) =>
  proxyActivities<SignerActivities>({
    taskQueue: signerTaskQueue(workflowInfo().taskQueue, mode),
    startToCloseTimeout: '2 minutes',
    heartbeatTimeout: HEARTBEAT_TIMEOUT,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  });

/**
 * CCTP transfers on the signer worker (workflows/cctpTransfer.ts): resumable passes that retry without limit, with
 * backoff for an unavailable attestation service; only what the signer refuses (a message that is not the burn's,
 * a refused request) stops a transfer for an operator.
 */
export const transfers = (mode: Mode) =>
  proxyActivities<SignerActivities>({
    taskQueue: signerTaskQueue(workflowInfo().taskQueue, mode),
    startToCloseTimeout: '2 minutes',
    heartbeatTimeout: HEARTBEAT_TIMEOUT,
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '1 minute',
      nonRetryableErrorTypes: [WorkflowFailure.TransferRefused],
    },
  });
