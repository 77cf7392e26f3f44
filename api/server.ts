import type { Server, ServerResponse } from 'node:http';
import type Koa from 'koa';
import { createApiMetrics } from '../observability/apiMetrics';
import { createApiKeyCache } from './apiKeyCache';
import { createApp } from './app';
import type { ApiDeps, AppState } from './context';
import { createInternalApp } from './internalApp';

export interface RunningApi {
  url: string;
  /** The internal listener (/metrics, detailed /readyz), when INTERNAL_PORT is set. */
  internalUrl?: string;
  close(): Promise<void>;
}

/** The internal listener: no drain, it closes with the process. */
async function startInternalServer(app: Koa<AppState>, host: string, port: number): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = app.listen(port, host);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host}:${actualPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Listens on host:port (0 = any free port). close() first drains for `config.shutdownDrainMs`: requests are
 * still served but /readyz answers 503, so a load balancer stops routing here before connections are refused.
 * Then it stops accepting connections and lets in-flight requests finish, answering them with
 * `Connection: close` so keep-alive clients reconnect elsewhere; whatever still runs after
 * `config.shutdownTimeoutMs` is cut off.
 */
export async function startApiServer(deps: ApiDeps, host: string, port: number): Promise<RunningApi> {
  let draining = false;
  const metrics = createApiMetrics(deps.sql, deps.config.inventory.caps);
  const apiKeys = createApiKeyCache(deps.sql);
  // Not awaited: an API whose database is down still starts, answers /readyz 503, and caches keys once it listens.
  void apiKeys.listen();
  const app = createApp({ ...deps, draining: () => draining }, metrics, apiKeys);
  const internalPort = deps.config.internal.port;
  const internal =
    internalPort === undefined
      ? undefined
      : await startInternalServer(
          createInternalApp({ ...deps, draining: () => draining }, metrics),
          deps.config.internal.host,
          internalPort,
        );
  let closing = false;
  const inFlight = new Set<ServerResponse>();
  return new Promise((resolve, reject) => {
    const server: Server = app.listen(port, host);
    server.on('request', (_request, response: ServerResponse) => {
      if (closing) response.shouldKeepAlive = false;
      inFlight.add(response);
      response.once('close', () => inFlight.delete(response));
    });
    server.once('error', reject);
    server.once('listening', () => {
      const address = server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      resolve({
        url: `http://${host}:${actualPort}`,
        ...(internal ? { internalUrl: internal.url } : {}),
        close: async () => {
          draining = true;
          if (deps.config.shutdownDrainMs > 0) await new Promise((resolve) => setTimeout(resolve, deps.config.shutdownDrainMs));
          await new Promise<void>((done) => {
            closing = true;
            // Their answers end their connections, which would otherwise idle until the keep-alive timeout.
            for (const response of inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
            const force = setTimeout(() => server.closeAllConnections(), deps.config.shutdownTimeoutMs);
            force.unref();
            server.close(() => {
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
          });
          await internal?.close();
          await apiKeys.close();
        },
      });
    });
  });
}
