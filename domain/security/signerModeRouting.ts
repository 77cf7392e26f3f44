// A signer of one mode does the work of that mode only (docs/operations.md#signers). The workflows route signer work
// to the queue of its mode; a task of the other mode on a signer's queue (a routing bug, or a poller of Temporal
// scheduling by hand) is refused before any key or seed is touched, so a test request can never be answered from
// live material nor a live one settled as a keyless test signer would settle it.
import type { Mode } from '../wire/session';

/** Why a signer of `signerMode` refuses an activity input, or undefined when the input is its mode's. */
export function signerModeRefusal(signerMode: Mode, input: unknown): string | undefined {
  const mode = typeof input === 'object' && input !== null && 'mode' in input ? (input as { mode: unknown }).mode : undefined;
  if (mode === signerMode) return undefined;
  const named = typeof mode === 'string' ? `mode ${JSON.stringify(mode)}` : 'no mode';
  return `the ${signerMode} signer refuses work of ${named}: only its own mode's work is routed to <queue>-signer-${signerMode}`;
}
