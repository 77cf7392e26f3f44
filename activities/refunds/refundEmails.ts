// A refund's customer e-mails (docs/refunds.md#e-mail-to-the-customer), sent from the activity that writes the webhook
// each goes out with (activities/refunds/refundWebhooks.ts), so the workflow's commands stay as they were. At most
// once per refund and kind: under a lock of its own, the e-mail is sent only while unstamped, and stamped in the same
// transaction; a crash between the send and the commit sends it again on the activity's retry.
import type { Sql } from '../../db/client';
import { lockUntilCommit } from '../../db/repositories/locks';
import { markRefundEmailed, refundEmailFacts } from '../../db/repositories/refundEmails';
import { refundEmailVerdict, type RefundEmailKind } from '../../domain/refunds/refundEmail';
import type { Mailer } from '../email/smtpMailer';

export function createRefundEmails(deps: { sql: Sql; mailer: Mailer | undefined }) {
  return {
    /** Sends the refund's `kind` e-mail if it is due; answers whether it did. No mailer (no SMTP_URL): none is. */
    async emailRefundCustomer(refundId: string, kind: RefundEmailKind): Promise<boolean> {
      const { mailer } = deps;
      if (!mailer) return false;
      return deps.sql.begin(async (tx) => {
        await lockUntilCommit(tx, `refund-email:${refundId}:${kind}`);
        const facts = await refundEmailFacts(tx, refundId);
        const verdict = facts && refundEmailVerdict(kind, facts);
        if (!verdict?.send) return false;
        await mailer.send(verdict.message);
        await markRefundEmailed(tx, refundId, kind);
        return true;
      });
    },
  };
}
