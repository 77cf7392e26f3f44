// Liveness and readiness for orchestrators. /healthz: the process answers (restart it if not). /readyz: its
// dependencies answer too (send it traffic only then); each check has a short deadline, so a hung dependency
// makes the probe fail fast instead of hanging with it. The public port says only ready or not; which
// dependency failed, and why, is for the internal listener (api/internalApp.ts).
import type Router from '@koa/router';
import type { ApiDeps, AppState } from '../../context';

type Check = 'postgres' | 'temporal';

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function registerHealthRoutes(router: Router<AppState>, deps: ApiDeps, options: { detailed: boolean }): void {
  const timeoutMs = deps.config.readinessTimeoutMs;
  const checks: Record<Check, () => Promise<unknown>> = {
    postgres: () => withTimeout(deps.sql`select 1`.execute(), timeoutMs),
    temporal: () => deps.temporal.withDeadline(Date.now() + timeoutMs, () => deps.temporal.workflowService.getSystemInfo({})),
  };

  router.get('/healthz', (ctx) => {
    ctx.body = { data: { status: 'ok' } };
  });

  router.get('/readyz', async (ctx) => {
    if (deps.draining?.()) {
      ctx.status = 503;
      ctx.body = { error: 'Not ready: shutting down' };
      return;
    }
    const names = Object.keys(checks) as Check[];
    const results = await Promise.allSettled(names.map((name) => checks[name]()));
    const report: Record<string, string> = {};
    const failed: Check[] = [];
    results.forEach((result, i) => {
      const name = names[i] as Check;
      if (result.status === 'fulfilled') report[name] = 'ok';
      else {
        failed.push(name);
        report[name] = result.reason instanceof Error ? result.reason.message : String(result.reason);
      }
    });
    if (failed.length === 0) {
      ctx.body = { data: options.detailed ? { status: 'ready', checks: report } : { status: 'ready' } };
      return;
    }
    ctx.state.log.warn({ checks: report }, 'not ready');
    ctx.status = 503;
    ctx.body = options.detailed
      ? { error: `Not ready: ${failed.join(', ')} unreachable`, details: { checks: report } }
      : { error: 'Not ready' };
  });
}
