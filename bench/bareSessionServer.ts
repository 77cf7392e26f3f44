// The yardstick for get-session: a bare Koa route, in a process of its own like the API, that runs the same
// read-model query (findSession) and the same presentation, with no authentication, rate limiting, validation
// or logging.
import Koa from 'koa';
import { presentSession } from '../api/routes/sessions/present';
import { loadChainsConfig } from '../config/chains';
import { loadConfig } from '../config/env';
import { paymentOfferFromConfig } from '../config/paymentOffer';
import { createSql } from '../db/client';
import { findSession } from '../db/repositories/sessions';
import { createChainRegistry } from '../domain/chains/chainRegistry';

const sql = createSql(process.env.DATABASE_URL ?? '', { max: 10 });
// As the API builds it: the presentation asks the registry which pairs the session can be paid in.
const registry = createChainRegistry(loadChainsConfig(process.env));
const offer = paymentOfferFromConfig(loadConfig(process.env, 'api'), registry);
const owner = { merchantId: process.env.BENCH_MERCHANT_ID ?? '', mode: 'test' as const };
const app = new Koa();
app.use(async (ctx) => {
  const sessionId = ctx.path.split('/').pop() ?? '';
  const view = await findSession(sql, owner, sessionId);
  ctx.status = view ? 200 : 404;
  ctx.body = view ? { data: presentSession(view, registry, offer) } : { error: 'Session not found' };
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(JSON.stringify({ msg: 'bare server listening' })));
process.once('SIGTERM', () => {
  server.close();
  void sql.end({ timeout: 1 }).then(() => process.exit(0));
});
