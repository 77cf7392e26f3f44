// The boundary between an indexer and the session workflows: one signal of workflows/messages.ts to the
// workflow whose id is the session id.
import type { Client } from '@temporalio/client';
import { isGrpcServiceError } from '@temporalio/client';
import { defaultPayloadConverter, type SignalDefinition } from '@temporalio/common';
import { confirmationsSignal, depositConfirmedSignal, depositDetectedSignal, depositReorgedSignal } from '../../workflows/messages';

const SIGNAL_DEFINITIONS = {
  depositDetected: depositDetectedSignal,
  confirmations: confirmationsSignal,
  depositConfirmed: depositConfirmedSignal,
  depositReorged: depositReorgedSignal,
} as const;

type SignalKind = keyof typeof SIGNAL_DEFINITIONS;
type PayloadOf<D> = D extends SignalDefinition<[infer Payload]> ? Payload : never;

/** Payloads typed from the definitions in workflows/messages.ts, so a change there fails type-checking here. */
export type IndexerSignal = { [K in SignalKind]: { kind: K; payload: PayloadOf<(typeof SIGNAL_DEFINITIONS)[K]> } }[SignalKind];

/** 'not-found': no running workflow has that id (never started, or already closed). */
export type SignalOutcome = 'delivered' | 'not-found';

export interface SignalSender {
  /**
   * `requestId` is the same for every attempt of the same step, so a step sent again after a crash is
   * delivered once. Throws when the outcome is unknown (Temporal unreachable): the caller retries later.
   */
  send(sessionId: string, signal: IndexerSignal, requestId: string): Promise<SignalOutcome>;
}

const GRPC_NOT_FOUND = 5;

/**
 * Sends through the raw SignalWorkflowExecution call because WorkflowHandle.signal() always draws a random
 * request id, and the id is what lets the server drop a duplicate: Temporal remembers the request ids of the
 * signals a running workflow has received. Payloads go through the default payload converter, as the rest of
 * the service uses no custom data converter.
 */
export function createTemporalSignalSender(client: Client, options: { namespace: string; identity?: string }): SignalSender {
  const identity = options.identity ?? `indexer@${process.pid}`;
  return {
    async send(sessionId, signal, requestId) {
      try {
        await client.workflowService.signalWorkflowExecution({
          namespace: options.namespace,
          workflowExecution: { workflowId: sessionId },
          signalName: SIGNAL_DEFINITIONS[signal.kind].name,
          input: { payloads: [defaultPayloadConverter.toPayload(signal.payload)] },
          identity,
          requestId,
        });
        return 'delivered';
      } catch (error) {
        if (isGrpcServiceError(error) && error.code === GRPC_NOT_FOUND) return 'not-found';
        throw error;
      }
    },
  };
}
