// simulate (test sessions, docs/api.md#simulate): a forced status takes the path a natural change takes. A paid
// status needs a payment to report, so where the customer chose none the simulation chooses one (the first
// pair of the session that test mode can take) and makes up the received amount; getState marks both.
import { ApplicationFailure, upsertSearchAttributes } from '@temporalio/workflow';
import type { PaymentInstructions } from '../domain/wire/payment';
import type { SessionRecord } from '../domain/wire/session';
import { simulateReceipt, type LedgerTerms } from '../domain/session/sessionLedger';
import type { SessionState } from '../domain/session/sessionState';
import type { SessionStatus } from '../domain/wire/status';
import { WorkflowFailure } from '../domain/session/workflowFailures';
import { activityFailureOfType } from './activityFailures';
import { ChainAttribute, TokenAttribute } from './searchAttributes';
import { issuePaymentInstructions } from './paymentPreparation';
import { records } from './sessionActivities';

export interface Simulation {
  record: SessionRecord;
  state: SessionState;
  terms: LedgerTerms;
  status: SessionStatus;
  settle(): Promise<boolean>;
  moveTo(status: SessionStatus, reason: string): Promise<void>;
}

type PaidStatus = 'completed' | 'underpaid' | 'overpaid';
const isPaid = (status: SessionStatus): status is PaidStatus => status === 'completed' || status === 'underpaid' || status === 'overpaid';

export async function simulateStatus(sim: Simulation): Promise<void> {
  const { record, state, status } = sim;
  if (isPaid(status)) {
    const chosenHere = !state.selection;
    state.selection ??= await simulatedSelection(record);
    upsertSearchAttributes([
      { key: ChainAttribute, value: state.selection.chain },
      { key: TokenAttribute, value: state.selection.token },
    ]);
    simulateReceipt(state, status, sim.terms);
    state.simulated = { selection: (state.simulated?.selection ?? false) || chosenHere, receipt: true };
    await records.recordSimulatedReceipt(record.sessionId, state.receivedBaseUnits);
    if (!(await sim.settle())) return;
  }
  await sim.moveTo(status, 'simulated through POST /checkout/sessions/{session_id}/simulate (test mode)');
}

async function simulatedSelection(record: SessionRecord): Promise<PaymentInstructions> {
  for (const [token, chains] of Object.entries(record.supportedTokens) as [
    PaymentInstructions['token'],
    PaymentInstructions['chain'][],
  ][]) {
    for (const chain of chains) {
      try {
        return await issuePaymentInstructions(record, { token, chain }, undefined);
      } catch (error) {
        if (!activityFailureOfType(error, WorkflowFailure.SelectionRefused)) throw error;
      }
    }
  }
  throw ApplicationFailure.create({
    type: WorkflowFailure.SimulateRefused,
    message: 'No token and chain of this session can be paid in test mode',
    nonRetryable: true,
  });
}
