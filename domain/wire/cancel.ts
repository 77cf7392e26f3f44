// POST /checkout/sessions/{session_id}/cancel: the merchant ends a session nobody has paid yet.
import { z } from './validationMessages';

export const CancelSessionRequest = z
  .object({
    reason: z.string().min(1).max(500).optional().meta({ description: 'Why; kept in the session history the workflow records.' }),
  })
  .strict()
  .optional();
export type CancelSessionRequest = z.infer<typeof CancelSessionRequest>;

/** What the session history says when the caller gave no reason. */
export const UNSTATED_CANCEL_REASON = 'no reason given';
