import type { Server } from 'node:http';
import { createApp } from './app';
import type { AppDeps } from './context';

export interface RunningApi {
  url: string;
  close(): Promise<void>;
}

/** Listens on host:port (0 = any free port); close() lets in-flight requests finish. */
export function startApiServer(deps: AppDeps, host: string, port: number): Promise<RunningApi> {
  const app = createApp(deps);
  return new Promise((resolve, reject) => {
    const server: Server = app.listen(port, host);
    server.once('error', reject);
    server.once('listening', () => {
      const address = server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      resolve({
        url: `http://${host}:${actualPort}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
}
