// Temporal task queues. Each queue beside the session queue is named after it, so the workflows (which run on
// the session queue) find it without configuration. Webhook deliveries — their workflows and their attempts — run
// on a queue of their own, so slow or dead receivers can never take the slots payment work needs.
export function webhookTaskQueue(sessionTaskQueue: string): string {
  return `${sessionTaskQueue}-webhooks`;
}

/**
 * A mode's signer queue: only that mode's signer, the only process holding its signing material, polls it
 * (docs/settlement.md#r4-keys-in-the-signer-alone). One queue per mode, so test and live keys never share a process.
 */
export function signerTaskQueue(sessionTaskQueue: string, mode: 'test' | 'live'): string {
  return `${sessionTaskQueue}-signer-${mode}`;
}

/** The Schedule that sweeps a mode's Solana deposit accounts (worker/sweepSchedules.ts); each run's id starts with it. */
export function sweepScheduleId(mode: 'test' | 'live'): string {
  return `sweep_solana_usdc_${mode}`;
}

/**
 * The Schedule that sweeps a mode's forwarder deposit addresses of one chain and token; each run's id starts with it.
 * Tron's is sweep_tron_<token>_<mode>, as the family names the Solana one: sweep_evm_tron_… would call Tron an EVM chain.
 */
export function evmSweepScheduleId(scope: { chain: string; token: string; mode: 'test' | 'live' }): string {
  const family = scope.chain === 'tron' ? 'tron' : `evm_${scope.chain}`;
  return `sweep_${family}_${scope.token.toLowerCase()}_${scope.mode}`;
}
