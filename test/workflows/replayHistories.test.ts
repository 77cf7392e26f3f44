// The release policy's replay test (docs/operations.md#releasing-workflow-changes): every history recorded into
// test/workflows/histories/<version>/<workflow id>.bin (recordHistory.ts) replays against today's workflow code. A
// change that alters the commands of a workflow some open execution already ran fails here until it goes behind
// patched(id).
import { readdirSync, readFileSync } from 'node:fs';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';

const HISTORIES = new URL('./histories/', import.meta.url);

const recorded = readdirSync(HISTORIES, { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.bin'))
  .sort()
  .map((path) => ({ path, workflowId: path.replace(/^.*\//, '').replace(/\.bin$/, '') }));

describe('recorded workflow histories', () => {
  it('replay against the current workflow code without a nondeterminism error', async () => {
    expect(recorded.length).toBeGreaterThan(0);
    const histories = recorded.map(({ path, workflowId }) => ({
      workflowId,
      history: temporal.api.history.v1.History.decode(readFileSync(new URL(path, HISTORIES))),
    }));
    const failed: { workflowId: string; error: string }[] = [];
    for await (const result of Worker.runReplayHistories({ workflowBundle: { code: inject('workflowBundleCode') } }, histories)) {
      if (result.error) failed.push({ workflowId: result.workflowId, error: String(result.error) });
    }
    expect(failed).toEqual([]);
  });
});
