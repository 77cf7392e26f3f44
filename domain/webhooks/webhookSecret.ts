// Webhook signing secrets and their rotation: the replaced secret may keep signing alongside the new one
// for an overlap (0 to 168 hours), so receivers can switch without dropping deliveries.
import { randomBytes } from 'node:crypto';

export const DEFAULT_OVERLAP_HOURS = 24;
export const MAX_OVERLAP_HOURS = 168;

export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('hex')}`;

/** Until when the replaced secret still signs; null when it stops at once. */
export const previousSecretUntil = (now: Date, overlapHours: number): Date | null =>
  overlapHours > 0 ? new Date(now.getTime() + overlapHours * 3_600_000) : null;

/** The secrets a delivery made at `at` is signed with: the current one, and the replaced one while its overlap lasts. */
export function signingSecrets(current: string, previous: string | null, previousUntil: Date | null, at: Date): string[] {
  return previous !== null && previousUntil !== null && previousUntil > at ? [current, previous] : [current];
}
