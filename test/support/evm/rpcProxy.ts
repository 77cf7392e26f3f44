// A JSON-RPC proxy in front of the local Hardhat node: counts every request by method and can answer with
// HTTP errors or hang instead of forwarding, to stand in for a rate-limited or failing RPC provider.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JsonRpcRequest {
  id: number;
  method: string;
  params?: unknown[];
}

/** What to do with one request: forward it (possibly late), answer with this HTTP status, or never answer. */
export type ProxyAction = 'forward' | 'hang' | { status: number } | { delayMs: number };

/**
 * Or answer in the node's place (`result` or `error` of a JSON-RPC response), as another node of a pool would,
 * deciding per request: `{ forward: true }` passes this one on after all.
 */
export interface AnswerAction {
  respond(request: JsonRpcRequest): { result: unknown } | { error: { code: number; message: string } } | { forward: true };
}

export interface RpcProxy {
  url: string;
  /** Requests received (forwarded or not), per JSON-RPC method. */
  calls: Map<string, number>;
  totalCalls(): number;
  resetCalls(): void;
  /** Decides each request's fate; `index` counts requests since the policy was set, from 0. */
  setPolicy(policy: (method: string, index: number) => ProxyAction | AnswerAction): void;
  failures: number;
  close(): Promise<void>;
}

export async function startRpcProxy(targetUrl: string): Promise<RpcProxy> {
  const calls = new Map<string, number>();
  let policy: (method: string, index: number) => ProxyAction | AnswerAction = () => 'forward';
  let index = 0;
  const proxy: RpcProxy = {
    url: '',
    calls,
    totalCalls: () => [...calls.values()].reduce((sum, n) => sum + n, 0),
    resetCalls: () => calls.clear(),
    setPolicy(next) {
      policy = next;
      index = 0;
    },
    failures: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const parsed = JSON.parse(body) as JsonRpcRequest | JsonRpcRequest[];
      const methods = Array.isArray(parsed) ? parsed.map((r) => r.method) : [parsed.method];
      for (const method of methods) calls.set(method, (calls.get(method) ?? 0) + 1);
      const action = policy(methods[0] ?? '', index++);
      if (action === 'hang') {
        proxy.failures += 1;
        return;
      }
      if (action !== 'forward' && 'status' in action) {
        proxy.failures += 1;
        response.writeHead(action.status, { 'content-type': 'text/plain' }).end('injected failure');
        return;
      }
      const answer = action !== 'forward' && 'respond' in action && !Array.isArray(parsed) ? action.respond(parsed) : undefined;
      if (answer && !('forward' in answer) && !Array.isArray(parsed)) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: parsed.id, ...answer }));
        return;
      }
      const delayMs = action === 'forward' || !('delayMs' in action) ? 0 : action.delayMs;
      setTimeout(() => {
        fetch(targetUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
          async (upstream) => {
            response.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
          },
          () => response.writeHead(502).end(),
        );
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
