import type { Server, ServerResponse } from 'node:http';
import { createApp } from './app';
import type { AppDeps } from './context';

export interface RunningApi {
  url: string;
  close(): Promise<void>;
}

/**
 * Listens on host:port (0 = any free port). close() first drains for `config.shutdownDrainMs`: requests are
 * still served but /readyz answers 503, so a load balancer stops routing here before connections are refused.
 * Then it stops accepting connections and lets in-flight requests finish, answering them with
 * `Connection: close` so keep-alive clients reconnect elsewhere; whatever still runs after
 * `config.shutdownTimeoutMs` is cut off.
 */
export function startApiServer(deps: AppDeps, host: string, port: number): Promise<RunningApi> {
  let draining = false;
  const app = createApp({ ...deps, draining: () => draining });
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
        },
      });
    });
  });
}
