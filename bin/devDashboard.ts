// The dashboard line of `npm start`: a one-time sign-up link for a user of the demo merchant. The first start
// invites demo@example.com; once that user has chosen a password, each start invites a fresh address, so the
// printed link always works (as `checkout-admin user invite` would for an operator).
import type { Sql } from '../db/client';
import { findUserByEmail } from '../db/repositories/merchantUsers';
import { inviteUser } from '../db/repositories/userInvites';
import { invitationUrl } from '../domain/security/invitation';

export const DEMO_DASHBOARD_EMAIL = 'demo@example.com';

export async function demoDashboardAccess(
  sql: Sql,
  merchantId: string,
  apiUrl: string,
): Promise<{ dashboardUrl: string; email: string; signInUrl: string }> {
  const existing = await findUserByEmail(sql, DEMO_DASHBOARD_EMAIL);
  const email = existing?.passwordHash ? `demo-${Date.now()}@example.com` : DEMO_DASHBOARD_EMAIL;
  const invited = await inviteUser(sql, merchantId, email);
  if (!invited) throw new Error(`${email} already has a dashboard account`);
  return { dashboardUrl: `${apiUrl}/dashboard`, email, signInUrl: invitationUrl(apiUrl, invited.token) };
}
