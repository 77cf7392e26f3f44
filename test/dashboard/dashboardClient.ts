// A signed-in dashboard as a browser would hold it, for HTTP-level tests: the session cookie from sign-in
// and the CSRF token from /dashboard/api/me go along with every call.
import { expect } from 'vitest';
import type { Sql } from '../../db/client';
import { setPasswordHash } from '../../db/repositories/merchantUsers';
import { inviteUser } from '../../db/repositories/userInvites';
import { hashPassword } from '../../api/dashboard/passwords';

export const PASSWORD = 'correct horse battery staple';

export interface DashboardResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the fields it asserts on
  body: { data?: any; error?: string; details?: { validation_errors: string[] } };
  text: string;
}

/** A user who has accepted their invitation; returns their id. */
export async function createDashboardUser(sql: Sql, merchantId: string, email: string, password = PASSWORD): Promise<string> {
  const invited = await inviteUser(sql, merchantId, email);
  if (!invited) throw new Error(`${email} already has an account`);
  await setPasswordHash(sql, invited.userId, await hashPassword(password));
  return invited.userId;
}

export class DashboardClient {
  cookie = '';
  csrf = '';
  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<DashboardResponse> {
    const response = await fetch(`${this.baseUrl}/dashboard${path}`, {
      method,
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(method !== 'GET' && this.csrf ? { 'x-csrf-token': this.csrf } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    const text = await response.text();
    const json = response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : {};
    return { status: response.status, headers: response.headers, body: json, text };
  }

  async signIn(email: string, password = PASSWORD, totpCode?: string): Promise<DashboardResponse> {
    const answer = await this.request('POST', '/api/sign-in', { email, password, ...(totpCode ? { totp_code: totpCode } : {}) });
    if (answer.status === 200 && !answer.body.data?.totp_required) {
      const me = await this.request('GET', '/api/me');
      expect(me.status).toBe(200);
      this.csrf = (me.body.data as { csrf_token: string }).csrf_token;
    }
    return answer;
  }
}
