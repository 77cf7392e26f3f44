// `:session_id` matches session ids only, so which of two overlapping routes answers no longer depends on
// the order they were registered in.
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppState } from '../../api/context';
import { constrainSessionIdParams } from '../../api/routes/sessionIdParam';

const SESSION = 'cs_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const REFUND = 'ref_01ARZ3NDEKTSV4RRFFQ69G5FAV';
let baseUrl: string;
let close: () => void;

beforeAll(async () => {
  const router = new Router<AppState>();
  // Registered in the order that used to route /checkout/sessions/current to the id route.
  router.get('/checkout/sessions/:session_id', (ctx) => {
    ctx.body = { route: 'by id', id: (ctx as unknown as { params: Record<string, string> }).params.session_id };
  });
  router.post('/checkout/sessions/:session_id/cancel', (ctx) => {
    ctx.body = { route: 'cancel' };
  });
  router.get('/checkout/sessions/current', (ctx) => {
    ctx.body = { route: 'current' };
  });
  router.get('/checkout/refunds/:refund_id', (ctx) => {
    ctx.body = { route: 'refund', id: (ctx as unknown as { params: Record<string, string> }).params.refund_id };
  });
  router.get('/checkout/refunds/claim', (ctx) => {
    ctx.body = { route: 'claim' };
  });
  constrainSessionIdParams(router);
  const app = new Koa<AppState>();
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  close = () => server.close();
});
afterAll(() => close?.());

const get = async (path: string, method = 'GET') => {
  const response = await fetch(`${baseUrl}${path}`, { method });
  return { status: response.status, body: response.status === 200 ? await response.json() : undefined };
};

describe('constrainSessionIdParams', () => {
  it('routes a literal path beside :session_id to the literal route, whatever the registration order', async () => {
    expect(await get('/checkout/sessions/current')).toEqual({ status: 200, body: { route: 'current' } });
  });

  it('still hands a session id to its route, with the parameter', async () => {
    expect(await get(`/checkout/sessions/${SESSION}`)).toEqual({ status: 200, body: { route: 'by id', id: SESSION } });
    expect(await get(`/checkout/sessions/${SESSION}/cancel`, 'POST')).toEqual({ status: 200, body: { route: 'cancel' } });
  });

  it('constrains :refund_id to refund ids the same way', async () => {
    expect(await get('/checkout/refunds/claim')).toEqual({ status: 200, body: { route: 'claim' } });
    expect(await get(`/checkout/refunds/${REFUND}`)).toEqual({ status: 200, body: { route: 'refund', id: REFUND } });
    expect((await get(`/checkout/refunds/${SESSION}`)).status).toBe(404);
  });

  it('matches nothing for a segment that is no session id', async () => {
    for (const path of ['/checkout/sessions/cs_nope', '/checkout/sessions/01ARZ3NDEKTSV4RRFFQ69G5FAV', `/checkout/sessions/${SESSION}X`]) {
      expect((await get(path)).status, path).toBe(404);
    }
    expect((await get('/checkout/sessions/cs_nope/cancel', 'POST')).status).toBe(404);
  });
});
