// The Sessions page's CSV export: the filtered list, one row per session, RFC 4180 quoting by csv-stringify.
import { stringify } from 'csv-stringify/sync';
import type { SessionListItem } from '../../db/repositories/sessionList';
import { centsToUsd } from '../../domain/money/money';

export const CSV_COLUMNS = [
  'session_id',
  'transaction_id',
  'status',
  'amount_usd',
  'token',
  'chain',
  'created_at',
  'updated_at',
  'expires_at',
] as const;

export function sessionsCsv(sessions: SessionListItem[]): string {
  return stringify(
    sessions.map((s) => [
      s.sessionId,
      s.extTransactionId,
      s.status,
      centsToUsd(s.amountUsdCents).toFixed(2),
      s.token ?? '',
      s.chain ?? '',
      s.createdAt.toISOString(),
      s.updatedAt.toISOString(),
      s.expiresAt.toISOString(),
    ]),
    { header: true, columns: [...CSV_COLUMNS] },
  );
}
