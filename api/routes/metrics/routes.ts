// Prometheus scrape endpoint of the API process. It carries business counts (sessions by status): keep it on
// the internal network, e.g. by not routing /metrics at the public reverse proxy.
import type Router from '@koa/router';
import type { ApiMetrics } from '../../../observability/apiMetrics';
import type { AppState } from '../../context';

export function registerMetricsRoute(router: Router<AppState>, metrics: ApiMetrics): void {
  router.get('/metrics', async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
}
