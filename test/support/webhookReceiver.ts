// A real merchant webhook endpoint on loopback that records every delivery exactly as received.
import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  answeredWith: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Decides the status code of each delivery (default 200). */
  respondWith(decide: (delivery: Omit<ReceivedWebhook, 'answeredWith'>) => number | Promise<number>): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let decide: (delivery: Omit<ReceivedWebhook, 'answeredWith'>) => number | Promise<number> = () => 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const delivery = { headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') };
      const status = await decide(delivery);
      received.push({ ...delivery, answeredWith: status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    respondWith(next) {
      decide = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
