// The dashboard line of `npm start`: every start prints a one-time link that works, for demo@example.com
// first and for a fresh user of the demo merchant once that one has a password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDashboardAccess, DEMO_DASHBOARD_EMAIL } from '../../bin/devDashboard';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { startTestService, type TestService } from '../support/service';
import { DashboardClient, PASSWORD } from '../dashboard/dashboardClient';

let service: TestService;
let merchant: TestMerchant;

beforeAll(async () => {
  service = await startTestService({ worker: false });
  merchant = await createTestMerchant(service.db.sql, { name: 'Demo merchant' });
});
afterAll(async () => service?.stop());

async function accept(signInUrl: string): Promise<DashboardClient> {
  const url = new URL(signInUrl);
  const client = new DashboardClient(service.baseUrl);
  expect((await client.request('POST', '/api/invite/accept', { token: url.hash.slice(1), password: PASSWORD })).status).toBe(200);
  return client;
}

describe('npm start dashboard access', () => {
  it('prints a working one-time link on every start', async () => {
    const first = await demoDashboardAccess(service.db.sql, merchant.merchant.id, service.baseUrl);
    expect(first).toMatchObject({ dashboardUrl: `${service.baseUrl}/dashboard`, email: DEMO_DASHBOARD_EMAIL });
    // Restarted before anyone used the link: the same user gets a fresh link, and either works once.
    const again = await demoDashboardAccess(service.db.sql, merchant.merchant.id, service.baseUrl);
    expect(again.email).toBe(DEMO_DASHBOARD_EMAIL);
    const client = await accept(again.signInUrl);
    const me = await client.request('GET', '/api/me');
    expect(me.body.data).toMatchObject({ user: { email: DEMO_DASHBOARD_EMAIL }, merchant: { id: merchant.merchant.id } });

    const later = await demoDashboardAccess(service.db.sql, merchant.merchant.id, service.baseUrl);
    expect(later.email).toMatch(/^demo-\d+@example\.com$/);
    await accept(later.signInUrl);
  });
});
