// Every signal, update and query of the session workflow. The API, indexers and tests import these,
// never the workflow code itself.
import { defineQuery } from '@temporalio/workflow';
import type { SessionStatus } from '../domain/status';

export const CHECKOUT_SESSION_WORKFLOW = 'checkoutSession';

export interface StatusTransition {
  status: SessionStatus;
  at: string;
  reason: string;
}

/** The workflow's own view of its session, for operators and tests. */
export interface SessionState {
  sessionId: string;
  status: SessionStatus;
  /** Incremented by every status change; the read model keeps the highest it has seen. */
  version: number;
  expiresAt: string;
  transitions: StatusTransition[];
}

export const getStateQuery = defineQuery<SessionState>('getState');
