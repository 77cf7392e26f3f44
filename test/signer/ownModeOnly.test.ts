// A signer worker runs its activities for its own mode's work only: a task of the other mode on its queue is
// refused, non-retryably, before the activity (and any key) is reached.
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { ownModeOnly } from '../../signer/worker';
import { WorkflowFailure } from '../../domain/session/workflowFailures';

describe('ownModeOnly', () => {
  it("runs its mode's work and refuses the other mode's without running the activity", async () => {
    const ran: string[] = [];
    const activities = ownModeOnly('test', {
      payTreasuryPayout: async (input: { mode: 'test' | 'live'; paymentId: string }) => {
        ran.push(input.paymentId);
        return { status: 'no_treasury' as const };
      },
    });
    await expect(activities.payTreasuryPayout({ mode: 'test', paymentId: 'pay_test' })).resolves.toEqual({ status: 'no_treasury' });
    const refused = activities.payTreasuryPayout({ mode: 'live', paymentId: 'pay_live' });
    await expect(refused).rejects.toBeInstanceOf(ApplicationFailure);
    await expect(refused).rejects.toMatchObject({ type: WorkflowFailure.SignerModeRefused, nonRetryable: true });
    expect(ran).toEqual(['pay_test']);
  });
});
