// Filters of a session list (GET /checkout/sessions and the dashboard's Sessions page and CSV export).
// The contract's list endpoints return every match without pagination, so the created-date range is
// required and at most MAX_LIST_RANGE_DAYS long: that bounds what one answer can hold.
import { CHAINS, TOKENS } from '../chains/chains';
import { SESSION_STATUSES } from './status';
import { z } from './validationMessages';

export const MAX_LIST_RANGE_DAYS = 31;
const DAY_MS = 86_400_000;

const Timestamp = z.iso.datetime({ offset: true }).transform((text) => new Date(text));

export const SessionListQuery = z
  .object({
    created_from: Timestamp,
    created_to: Timestamp,
    status: z.enum(SESSION_STATUSES).optional(),
    chain: z.enum(CHAINS).optional(),
    token: z.enum(TOKENS).optional(),
    /** Part of the merchant's own transaction id, any case. */
    transaction_id: z.string().trim().min(1).max(200).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.created_to.getTime() <= q.created_from.getTime())
      ctx.addIssue({ code: 'custom', path: ['created_to'], message: 'Must be after created_from' });
    else if (q.created_to.getTime() - q.created_from.getTime() > MAX_LIST_RANGE_DAYS * DAY_MS) {
      ctx.addIssue({ code: 'custom', path: ['created_to'], message: `Must be at most ${MAX_LIST_RANGE_DAYS} days after created_from` });
    }
  });

export type SessionListFilter = z.infer<typeof SessionListQuery>;
