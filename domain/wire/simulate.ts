// POST /checkout/sessions/{session_id}/simulate (docs/api.md#simulate): non-production only.
import { SESSION_STATUSES } from './status';
import { z } from './validationMessages';

export const SimulateRequest = z.object({ status: z.enum(SESSION_STATUSES) }).strict();
export type SimulateRequest = z.infer<typeof SimulateRequest>;

export const SimulateResponse = z.object({ session_id: z.string(), status: z.enum(SESSION_STATUSES) }).strict();
export type SimulateResponse = z.infer<typeof SimulateResponse>;
