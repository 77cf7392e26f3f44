// Webhook receivers that never finish answering, as an attacker's or a broken endpoint would: one accepts
// and says nothing (a blackhole), one trickles a status line a byte at a time and never ends it. Each counts
// the connections it holds open, so a test can see how many delivery slots they managed to take.
import { createServer, type Server, type Socket } from 'node:net';

export interface SlowReceiver {
  url: string;
  /** Connections open right now, and the most ever open at once. */
  open(): number;
  peak(): number;
  close(): Promise<void>;
}

async function slowReceiver(onConnection: (socket: Socket) => void): Promise<SlowReceiver> {
  const sockets = new Set<Socket>();
  let peak = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    peak = Math.max(peak, sockets.size);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    open: () => sockets.size,
    peak: () => peak,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Accepts the connection and the request, and never writes a byte. */
export function startBlackholeReceiver(): Promise<SlowReceiver> {
  return slowReceiver(() => undefined);
}

/** Writes `HTTP/1.1 200 OK` one byte every `intervalMs`, then keeps trickling spaces: never a full status line. */
export function startTricklingReceiver(intervalMs = 1_000): Promise<SlowReceiver> {
  const line = 'HTTP/1.1 200 OK';
  return slowReceiver((socket) => {
    let sent = 0;
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      socket.write(sent < line.length ? line[sent]! : ' ');
      sent += 1;
    }, intervalMs);
    socket.on('close', () => clearInterval(timer));
  });
}

/** Answers `200 OK` with headers at once, then a body that trickles a byte every `intervalMs` and never ends. */
export function startTricklingBodyReceiver(intervalMs = 300): Promise<SlowReceiver> {
  return slowReceiver((socket) => {
    socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 1000000\r\n\r\n');
    const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write('.')), intervalMs);
    socket.on('close', () => clearInterval(timer));
  });
}
