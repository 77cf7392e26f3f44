// The hosted checkout page when it cannot show a checkout (forged or missing token, unknown session), the
// session-token endpoint it reads, and how the page is delivered: headers, compression, caching, weight.
import { get, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PAGE_CSP } from '../../api/routes/hostedPage/pageHtml';
import { HostedCheckoutSession } from '../../domain/wire/hostedCheckout';
import { call } from '../support/http';
import { createCheckout, expectSelfContained, openTab, pageBenchWithoutWorker, screenshot, waitForStep } from './pageHarness';

// No worker: nothing here needs the session workflow, and webhooks are never due.
const WEBHOOK_URL = 'http://127.0.0.1:9/webhooks';

const bench = pageBenchWithoutWorker();

/** The bytes as sent: fetch() would decompress them. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('hosted checkout page, states without a checkout', () => {
  it('says the link is no longer valid for a forged token (the API answers 401)', async () => {
    const session = await createCheckout(bench.service, bench.shop, WEBHOOK_URL);
    const tab = await openTab(bench.browser);
    await tab.page.goto(session.url.replace(/token=[^&]+/, 'token=forged.token'));
    await waitForStep(tab.page, 'problem:invalid-token');
    expect(await tab.page.textContent('h2')).toBe('This payment link is no longer valid');
    expect(await tab.page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
    expect(await tab.page.textContent('main')).not.toMatch(/error|stack|at \w+ \(/i);
    await screenshot(tab.page, '09-invalid-token');
    expectSelfContained(tab);
    await tab.close();
  });

  it('takes the token out of the address bar at once, and still works after a reload', async () => {
    const session = await createCheckout(bench.service, bench.shop, WEBHOOK_URL);
    const tab = await openTab(bench.browser);
    await tab.page.goto(session.url);
    await waitForStep(tab.page, 'choose');
    expect(tab.page.url()).toBe(session.url.split('?')[0]);
    await tab.page.reload();
    await waitForStep(tab.page, 'choose');
    expect(tab.page.url()).not.toContain('token=');
    await tab.close();
  });

  it('says the link is incomplete without a token', async () => {
    const session = await createCheckout(bench.service, bench.shop, WEBHOOK_URL);
    const tab = await openTab(bench.browser);
    await tab.page.goto(session.url.split('?')[0] as string);
    await waitForStep(tab.page, 'problem:missing-token');
    expect(await tab.page.textContent('h2')).toBe('This payment link is incomplete');
    expectSelfContained(tab);
    await tab.close();
  });

  it('says the checkout is not found for a path that is no session, or a token of another session', async () => {
    const tab = await openTab(bench.browser);
    const response = await tab.page.goto(`${bench.service.baseUrl}/checkout/not-a-session?token=x`);
    expect(response?.status()).toBe(404);
    expect(await tab.page.textContent('h1')).toBe('Checkout not found');
    expect(await tab.page.$('script')).toBeNull();
    await screenshot(tab.page, '10-unknown-session');

    const mine = await createCheckout(bench.service, bench.shop, WEBHOOK_URL);
    const other = await createCheckout(bench.service, bench.shop, WEBHOOK_URL);
    await tab.page.goto(`${bench.service.baseUrl}/checkout/${other.sessionId}?token=${encodeURIComponent(mine.token)}`);
    await waitForStep(tab.page, 'problem:unknown-session');
    expect(await tab.page.textContent('h2')).toBe('Checkout not found');
    expectSelfContained(tab);
    await tab.close();
  });
});

describe('GET /checkout/sessions/current', () => {
  it('answers the session the token names, in the documented shape, to the token alone', async () => {
    const session = await createCheckout(bench.service, bench.shop, WEBHOOK_URL, {
      amount_usd: 10,
      merchant_currency: 'GBP',
      merchant_amount: 8.5,
    });
    const byBearer = await call(bench.service.baseUrl, 'GET', '/checkout/sessions/current', {
      headers: { authorization: `Bearer ${session.token}`, 'x-service-user-type': 'checkout' },
    });
    expect(byBearer.status).toBe(200);
    expect(byBearer.headers.get('cache-control')).toBe('no-store');
    expect(HostedCheckoutSession.parse(byBearer.body.data)).toEqual({
      session_id: session.sessionId,
      status: 'pending',
      amount_usd: 10,
      merchant_currency: 'GBP',
      merchant_amount: 8.5,
      supported_methods: { crypto: true, bank: false },
      supported_tokens: { tokens: { USDC: { chain: ['base', 'solana'] } } },
      expires_at: expect.any(String),
      payment: null,
      deposit: null,
    });
    const byQuery = await call(bench.service.baseUrl, 'GET', `/checkout/sessions/current?token=${encodeURIComponent(session.token)}`, {
      headers: { 'x-service-user-type': 'checkout' },
    });
    expect(byQuery.status).toBe(200);
  });

  it('refuses a missing or forged token and an API key', async () => {
    expect((await call(bench.service.baseUrl, 'GET', '/checkout/sessions/current', { apiKey: bench.shop.testKey })).body).toEqual({
      error: 'Missing session token',
    });
    const forged = await call(bench.service.baseUrl, 'GET', '/checkout/sessions/current?token=forged', {
      headers: { 'x-service-user-type': 'checkout' },
    });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ error: 'Invalid or expired session token' });
  });
});

describe('delivery of the page', () => {
  it('sends a strict CSP and never caches the tokened HTML, which holds no session data', async () => {
    const session = await createCheckout(bench.service, bench.shop, WEBHOOK_URL);
    const response = await fetch(session.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(PAGE_CSP).not.toMatch(/unsafe|\*|http/);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html = await response.text();
    expect(html).not.toContain(session.sessionId);
    expect(html).not.toContain(session.token);
    expect(html).not.toMatch(/<script>|\sstyle=|\son\w+=/);
  });

  it('serves the bundle gzip-compressed, cacheable under its content hash, revalidating with 304', async () => {
    const html = await (
      await fetch(`${bench.service.baseUrl}/checkout/${(await createCheckout(bench.service, bench.shop, WEBHOOK_URL)).sessionId}`)
    ).text();
    const scriptUrl = /src="([^"]+checkout\.js\?v=\w+)"/.exec(html)?.[1];
    expect(scriptUrl).toBeDefined();
    const script = await rawGet(`${bench.service.baseUrl}${scriptUrl}`, { 'accept-encoding': 'gzip' });
    expect(script.headers['content-encoding']).toBe('gzip');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const code = gunzipSync(script.body).toString('utf8');
    expect(code).not.toMatch(/session-token-secret|mk_test_|mk_live_|sourceMappingURL/);
    const again = await fetch(`${bench.service.baseUrl}${scriptUrl}`, { headers: { 'if-none-match': script.headers.etag as string } });
    expect(again.status).toBe(304);
  });

  it('weighs little: HTML, script and stylesheet as transferred to a bench.browser', async () => {
    const session = await createCheckout(bench.service, bench.shop, WEBHOOK_URL);
    const tab = await openTab(bench.browser);
    await tab.page.goto(session.url);
    await waitForStep(tab.page, 'choose');
    const sizes = await tab.page.evaluate(() =>
      [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map(
        (e) => [new URL(e.name).pathname, (e as PerformanceResourceTiming).encodedBodySize] as const,
      ),
    );
    // The page itself, not the API calls it makes once loaded.
    const page = sizes.filter(([path]) => !path.startsWith('/checkout/sessions/'));
    const total = page.reduce((sum, [, size]) => sum + size, 0);
    console.log(`checkout page weight (encoded bodies): ${page.map(([path, size]) => `${path} ${size} B`).join(', ')}; total ${total} B`);
    expect(page.map(([path]) => path.replace(/cs_\w+$/, 'cs_…'))).toEqual([
      '/checkout/cs_…',
      '/checkout/assets/checkout.css',
      '/checkout/assets/checkout.js',
    ]);
    expect(total).toBeLessThan(25_000);
    expectSelfContained(tab);
    await tab.close();
  });
});
