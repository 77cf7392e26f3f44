// One workflow per checkout session (workflow id = session id). It alone decides the session's status;
// the read model in Postgres follows it through activities.
import { proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { ReadModelActivities } from '../activities/readModel';
import type { SessionRecord } from '../domain/session';
import type { SessionStatus } from '../domain/status';
import { getStateQuery, type SessionState } from './messages';

// Read-model writes retry without limit: a status the workflow decided must reach the read model.
const readModel = proxyActivities<ReadModelActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export async function checkoutSession(record: SessionRecord): Promise<SessionState> {
  const state: SessionState = {
    sessionId: record.sessionId,
    status: 'pending',
    version: 0,
    expiresAt: record.expiresAt,
    transitions: [{ status: 'pending', at: record.createdAt, reason: 'session created' }],
  };
  setHandler(getStateQuery, () => state);

  async function changeStatus(status: SessionStatus, reason: string): Promise<void> {
    const at = new Date().toISOString();
    state.status = status;
    state.version += 1;
    state.transitions.push({ status, at, reason });
    await readModel.recordStatusChange({ sessionId: record.sessionId, status, at, version: state.version });
  }

  await readModel.recordSession(record);

  const untilExpiry = Date.parse(record.expiresAt) - Date.now();
  if (untilExpiry > 0) await sleep(untilExpiry);
  await changeStatus('expired', 'session reached expires_at unpaid');
  return state;
}
