// The hosted page may pass its session token as `?token=` when it cannot set an Authorization header
// (docs/api.md#authentication); endpoints that accept a session token allow this query parameter.
import { z } from './validationMessages';

export const SessionTokenQuery = z
  .object({ token: z.string().optional().meta({ description: 'Session token, when not sent as Authorization: Bearer.' }) })
  .strict();
