// Temporal task queues. Each queue beside the session queue is named after it, so the workflows (which run on
// the session queue) find it without configuration. Webhook attempts run on a queue of their own, so slow or
// dead receivers can never take the slots payment work needs.
export function webhookTaskQueue(sessionTaskQueue: string): string {
  return `${sessionTaskQueue}-webhooks`;
}

/** The signer worker's queue: the only process holding signing material polls it (SETTLEMENT.md rule 4). */
export function signerTaskQueue(sessionTaskQueue: string): string {
  return `${sessionTaskQueue}-signer`;
}

/** The Schedule that sweeps a mode's Solana deposit accounts (worker/sweepSchedules.ts); each run's id starts with it. */
export function sweepScheduleId(mode: 'test' | 'live'): string {
  return `sweep_solana_usdc_${mode}`;
}
