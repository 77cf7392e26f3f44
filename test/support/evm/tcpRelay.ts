// A byte-level relay in front of the local node, for websocket clients: it forwards everything untouched and
// can cut every open connection at once, as a provider's load balancer or a network blip does.
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpRelay {
  /** host:port, to be prefixed with the scheme the client speaks (ws://). */
  address: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  dropAll(): void;
  /** From now on accept connections and answer nothing, as a blackholed endpoint does; release() ends it. */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const open = new Set<Socket>();
  const held = new Set<Socket>();
  let holding = false;
  let accepted = 0;
  const server = createServer((client) => {
    accepted += 1;
    if (holding) {
      held.add(client);
      client.on('error', () => client.destroy());
      return;
    }
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    get accepted() {
      return accepted;
    },
    dropAll() {
      for (const socket of open) socket.destroy();
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const socket of held) socket.destroy();
      held.clear();
    },
    close() {
      for (const socket of [...open, ...held]) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
