// Activities that can outlast a few seconds (a webhook attempt waiting on its receiver, a signer pass waiting on
// RPC, a treasury payout pass) beat while they run. Their options carry a short heartbeatTimeout
// (workflows/sessionActivities.ts, workflows/webhookDelivery.ts), so when their worker dies Temporal retries them
// within that timeout instead of waiting out the whole start-to-close. The beat says the process is alive; a call
// that hangs is bounded by its own deadline (RPC, WEBHOOK_TIMEOUT_MS) and the start-to-close.
import { Context } from '@temporalio/activity';

/** Often enough for the workers' heartbeat throttle (worker/recoveryOptions.ts) to send one every 2 s. */
const BEAT_EVERY_MS = 1_000;

export function heartbeating<A extends unknown[], R>(activity: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    const context = Context.current();
    context.heartbeat();
    const beat = setInterval(() => context.heartbeat(), BEAT_EVERY_MS);
    try {
      return await activity(...args);
    } finally {
      clearInterval(beat);
    }
  };
}
