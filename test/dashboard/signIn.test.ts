// Dashboard sign-in over HTTP against the real API and Postgres: Argon2id passwords, the session cookie's
// flags, lockout after repeated failures, idle and absolute expiry, CSRF refusals, sign-out everywhere,
// invitations, the authenticator secret sealed at rest, and the audit trail every state change writes.
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditEvents } from '../../db/repositories/auditEvents';
import { findUserByEmail } from '../../db/repositories/merchantUsers';
import { inviteUser } from '../../db/repositories/userInvites';
import { isSealedTotpSecret, openTotpSecret } from '../../domain/security/totpSecretSealing';
import { ABSOLUTE_LIFETIME_MS, IDLE_TIMEOUT_MS } from '../../domain/security/dashboardSession';
import { MAX_FAILED_SIGN_INS } from '../../domain/security/signInPolicy';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { startTestService, type TestService } from '../support/service';
import { createDashboardUser, DashboardClient, PASSWORD } from './dashboardClient';

let service: TestService;
let merchant: TestMerchant;

beforeAll(async () => {
  service = await startTestService({ worker: false });
  merchant = await createTestMerchant(service.db.sql, { name: 'Sign-in shop' });
});
afterAll(async () => service?.stop());

describe('dashboard sign-in', () => {
  it('stores an Argon2id hash, sets an HttpOnly, Secure, SameSite=Strict cookie and audits the sign-in', async () => {
    await createDashboardUser(service.db.sql, merchant.merchant.id, 'ada@example.com');
    const user = await findUserByEmail(service.db.sql, 'ada@example.com');
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);

    const client = new DashboardClient(service.baseUrl);
    expect((await client.request('GET', '/api/me')).status).toBe(401);
    const answer = await client.signIn('Ada@Example.com');
    expect(answer.status).toBe(200);
    const cookie = answer.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=strict/i);
    expect(cookie).toMatch(/secure/i);
    expect(cookie).toMatch(/path=\/dashboard/i);
    const me = await client.request('GET', '/api/me');
    expect(me.body.data).toMatchObject({ user: { email: 'ada@example.com' }, merchant: { id: merchant.merchant.id } });
    const audit = await listAuditEvents(service.db.sql, merchant.merchant.id);
    expect(audit[0]).toMatchObject({ actor: { kind: 'user', id: user!.id }, action: 'user.sign_in' });
  });

  it('refuses a wrong password and an unknown address alike, and locks the account after repeated failures', async () => {
    await createDashboardUser(service.db.sql, merchant.merchant.id, 'bob@example.com');
    const client = new DashboardClient(service.baseUrl);
    const unknown = await client.signIn('nobody@example.com', 'wrong password');
    const wrong = await client.signIn('bob@example.com', 'wrong password');
    expect([unknown.status, wrong.status]).toEqual([401, 401]);
    expect(unknown.body.error).toBe(wrong.body.error);
    for (let i = 1; i < MAX_FAILED_SIGN_INS; i++) expect((await client.signIn('bob@example.com', 'wrong password')).status).toBe(401);
    const locked = await client.signIn('bob@example.com', PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.error).toMatch(/locked/);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await listAuditEvents(service.db.sql, merchant.merchant.id)).some((e) => e.action === 'user.locked')).toBe(true);
  });

  it('ends a session after the idle limit and after the absolute limit', async () => {
    await createDashboardUser(service.db.sql, merchant.merchant.id, 'idle@example.com');
    const idle = new DashboardClient(service.baseUrl);
    await idle.signIn('idle@example.com');
    const absolute = new DashboardClient(service.baseUrl);
    await absolute.signIn('idle@example.com');
    expect((await idle.request('GET', '/api/me')).status).toBe(200);
    const user = await findUserByEmail(service.db.sql, 'idle@example.com');
    const sessions = await service.db.sql<
      { id_hash: Buffer }[]
    >`select id_hash from dashboard_sessions where user_id = ${user!.id} order by created_at`;
    const [first, second] = sessions;
    await service.db
      .sql`update dashboard_sessions set last_seen_at = now() - ${`${IDLE_TIMEOUT_MS + 60_000} milliseconds`}::interval where id_hash = ${first!.id_hash}`;
    await service.db
      .sql`update dashboard_sessions set created_at = now() - ${`${ABSOLUTE_LIFETIME_MS + 60_000} milliseconds`}::interval where id_hash = ${second!.id_hash}`;
    expect((await idle.request('GET', '/api/me')).status).toBe(401);
    expect((await absolute.request('GET', '/api/me')).status).toBe(401);
  });

  it('refuses a state change without the CSRF token, with a wrong one, or from another origin, and changes nothing', async () => {
    await createDashboardUser(service.db.sql, merchant.merchant.id, 'csrf@example.com');
    const client = new DashboardClient(service.baseUrl);
    await client.signIn('csrf@example.com');
    const keysBefore: unknown = (await client.request('GET', '/api/test/keys')).body.data;
    const noToken = await client.request('POST', '/api/test/keys', { label: 'x' }, { 'x-csrf-token': '' });
    const wrongToken = await client.request('POST', '/api/test/keys', { label: 'x' }, { 'x-csrf-token': 'forged' });
    const otherOrigin = await client.request('POST', '/api/test/keys', { label: 'x' }, { origin: 'https://evil.example' });
    expect([noToken.status, wrongToken.status, otherOrigin.status]).toEqual([403, 403, 403]);
    expect(noToken.body.error).toMatch(/CSRF/);
    expect((await client.request('GET', '/api/test/keys')).body.data).toEqual(keysBefore);
  });

  it('signs out this device, or every device', async () => {
    await createDashboardUser(service.db.sql, merchant.merchant.id, 'many@example.com');
    const [laptop, phone, tablet] = [
      new DashboardClient(service.baseUrl),
      new DashboardClient(service.baseUrl),
      new DashboardClient(service.baseUrl),
    ];
    for (const device of [laptop, phone, tablet]) await device.signIn('many@example.com');
    expect((await tablet.request('POST', '/api/sign-out')).status).toBe(200);
    expect((await tablet.request('GET', '/api/me')).status).toBe(401);
    expect((await phone.request('GET', '/api/me')).status).toBe(200);
    const everywhere = await laptop.request('POST', '/api/sign-out-everywhere');
    expect(everywhere.body.data).toEqual({ sessions_ended: 2 });
    expect((await phone.request('GET', '/api/me')).status).toBe(401);
    expect((await laptop.request('GET', '/api/me')).status).toBe(401);
    const audit = await listAuditEvents(service.db.sql, merchant.merchant.id);
    expect(audit.find((e) => e.action === 'user.sign_out_everywhere')?.changes).toEqual({ sessions_ended: 2 });
    expect(audit.filter((e) => e.action === 'user.sign_out')).toHaveLength(1);
  });

  it('accepts an invitation once, and lets a user invite a colleague', async () => {
    const invited = await inviteUser(service.db.sql, merchant.merchant.id, 'new@example.com');
    const client = new DashboardClient(service.baseUrl);
    const short = await client.request('POST', '/api/invite/accept', { token: invited!.token, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.details?.validation_errors).toEqual(['password: String must contain at least 12 character(s)']);
    expect((await client.request('POST', '/api/invite/accept', { token: invited!.token, password: PASSWORD })).status).toBe(200);
    expect(
      (await new DashboardClient(service.baseUrl).request('POST', '/api/invite/accept', { token: invited!.token, password: PASSWORD }))
        .status,
    ).toBe(400);

    await client.signIn('new@example.com');
    const colleague = await client.request('POST', '/api/users', { email: 'colleague@example.com' });
    expect(colleague.status).toBe(201);
    const link = new URL((colleague.body.data as { invitation_url: string }).invitation_url);
    expect(link.pathname).toBe('/dashboard/invite');
    const other = new DashboardClient(service.baseUrl);
    expect((await other.request('POST', '/api/invite/accept', { token: link.hash.slice(1), password: PASSWORD })).status).toBe(200);
    expect(((await other.request('GET', '/api/me')).body.data as { merchant: { id: string } }).merchant.id).toBe(merchant.merchant.id);
    expect((await client.request('POST', '/api/users', { email: 'colleague@example.com' })).status).toBe(409);
    const audit = await listAuditEvents(service.db.sql, merchant.merchant.id);
    expect(audit.find((e) => e.action === 'user.invite')?.changes).toMatchObject({ email: 'colleague@example.com' });
  });

  it('stores the authenticator secret sealed from setup on, and sign-in with its code still works', async () => {
    const userId = await createDashboardUser(service.db.sql, merchant.merchant.id, 'totp@example.com');
    const stored = async () =>
      (await service.db.sql<{ totp_secret: string }[]>`select totp_secret from merchant_users where id = ${userId}`)[0]!.totp_secret;
    const client = new DashboardClient(service.baseUrl);
    await client.signIn('totp@example.com');
    const setup = await client.request('POST', '/api/totp/setup');
    expect(setup.status).toBe(200);
    const secret = setup.body.data.secret as string;
    const pending = await stored();
    expect(isSealedTotpSecret(pending)).toBe(true);
    expect(pending).not.toContain(secret);
    expect(openTotpSecret(service.config.totpEncryptionKey!, userId, pending)).toBe(secret);

    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    expect((await client.request('POST', '/api/totp/enable', { code: totp.generate() })).status).toBe(200);
    const enabled = await stored();
    expect(isSealedTotpSecret(enabled)).toBe(true);
    expect(enabled).not.toContain(secret);

    const again = new DashboardClient(service.baseUrl);
    expect((await again.signIn('totp@example.com')).body.data).toEqual({ totp_required: true });
    const wrong = String((Number(totp.generate()) + 1) % 1_000_000).padStart(6, '0');
    expect((await again.signIn('totp@example.com', PASSWORD, wrong)).status).toBe(401);
    expect((await again.signIn('totp@example.com', PASSWORD, totp.generate())).status).toBe(200);
    expect((await again.request('GET', '/api/me')).body.data.user).toMatchObject({ id: userId, totp_enabled: true });
  });

  it('answers unknown dashboard API paths with a JSON 404, and every other path with the page under its strict CSP', async () => {
    const client = new DashboardClient(service.baseUrl);
    const unknown = await client.request('GET', '/api/no-such-thing');
    expect([unknown.status, unknown.body.error]).toEqual([404, 'Not found']);
    const page = await client.request('GET', '/test/developers');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
    const script = /src="(\/dashboard\/assets\/dashboard\.js\?v=[0-9a-f]+)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${service.baseUrl}${script}`);
    expect([asset.status, asset.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
  });
});
