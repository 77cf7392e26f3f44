// Workflow histories recorded by earlier code, replayed by today's: what select-payment ran then must replay the same.
// The histories are binary protobuf (temporal.api.history.v1.History), as fetchHistory gave them.
import { readFileSync } from 'node:fs';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { describe, inject, it } from 'vitest';

const recorded = (name: string) => temporal.api.history.v1.History.decode(readFileSync(new URL(`./histories/${name}.bin`, import.meta.url)));

const replay = (name: string, workflowId: string) => Worker.runReplayHistory({ workflowBundle: { code: inject('workflowBundleCode') } }, recorded(name), workflowId);

describe('select-payment histories from before its database steps ran as local activities', () => {
  it('replay: USDC on solana (index reserved, the signer derives), then on base, then on solana again, each step an activity', async () => {
    await replay('selectPaymentActivities', 'cs_replay');
  });
});

describe('select-payment histories from before the payment and its status change were one local activity', () => {
  it('replay: USDC on solana (index reserved, the signer derives), on base, on solana again, then cancelled; recordStatusChange a local activity of its own', async () => {
    await replay('selectPaymentLocalActivities', 'cs_replay_one_step');
  });
});
