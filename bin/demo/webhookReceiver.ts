// The merchant's side of the demo: a webhook endpoint on loopback that keeps each delivery exactly as received
// (the raw body is what the signature covers) and answers 200.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

export interface DemoWebhookReceiver {
  url: string;
  /** The first delivery, however long ago it arrived; rejects after `timeoutMs` without one. */
  next(timeoutMs: number): Promise<Delivery>;
  close(): Promise<void>;
}

export async function startDemoWebhookReceiver(): Promise<DemoWebhookReceiver> {
  const deliveries: Delivery[] = [];
  const waiters: Array<(delivery: Delivery) => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const delivery = { path: req.url ?? '/', headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') };
      res.writeHead(200).end();
      const waiter = waiters.shift();
      if (waiter) waiter(delivery);
      else deliveries.push(delivery);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    next(timeoutMs) {
      const ready = deliveries.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(deliver), 1);
          reject(new Error(`no webhook arrived within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        const deliver = (delivery: Delivery) => {
          clearTimeout(timer);
          resolve(delivery);
        };
        waiters.push(deliver);
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
