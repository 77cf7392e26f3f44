// A refund's customer e-mail (docs/refunds.md#e-mail-to-the-customer), sent by the API as it creates the refund (the
// claim link, which only it can make) or by the worker with refund.expiring (the reminder, with no link). At most once
// per refund and kind: under a lock of its own, the e-mail is sent only while unstamped, and stamped in the same
// transaction; a crash between the send and the commit sends it again on the next try.
import type { Sql } from '../../db/client';
import { lockUntilCommit } from '../../db/repositories/locks';
import { markRefundEmailed, refundEmailFacts } from '../../db/repositories/refundEmails';
import { refundEmailVerdict, type RefundEmail } from '../../domain/refunds/refundEmail';
import type { Mailer } from '../email/smtpMailer';

/** Sends `email` if it is due; answers whether it did. */
export async function emailRefundCustomer(deps: { sql: Sql; mailer: Mailer }, refundId: string, email: RefundEmail): Promise<boolean> {
  return deps.sql.begin(async (tx) => {
    await lockUntilCommit(tx, `refund-email:${refundId}:${email.kind}`);
    const facts = await refundEmailFacts(tx, refundId);
    const verdict = facts && refundEmailVerdict(email, facts);
    if (!verdict?.send) return false;
    await deps.mailer.send(verdict.message);
    await markRefundEmailed(tx, refundId, email.kind);
    return true;
  });
}
