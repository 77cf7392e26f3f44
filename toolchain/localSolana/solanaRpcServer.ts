// A JSON-RPC HTTP endpoint over the local chain, answering the methods the indexer uses (getGenesisHash,
// getSlot, getBlock with transactionDetails none/signatures/accounts) plus getHealth, getBlockHeight and
// getLatestBlockhash (per commitment, `finalized` by default as on a node), and the wallet methods of
// walletMethods.ts, in the shapes and with the error codes of a real Solana node. Counts calls per method and, like
// the EVM proxy, can answer with HTTP errors or never answer, to stand in for a failing provider, or lose the
// transactions sent to it (`dropping`).
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_PROCESSING_AGE, type LocalBlock, type LocalSolanaChain } from './localSolanaChain';
import { commitmentOf, RpcFailure } from './rpcFailure';
import { answerWalletMethod } from './walletMethods';

/**
 * What to do with one request: answer it (possibly late), answer with this HTTP status, or never answer. The
 * same shape as the EVM RPC proxy's actions, so the tests inject a failing provider into either alike.
 */
export type ProxyAction = 'forward' | 'hang' | { status: number } | { delayMs: number };

export interface SolanaRpcServer {
  url: string;
  calls: Map<string, number>;
  totalCalls(): number;
  resetCalls(): void;
  /** Decides each request's fate; `index` counts requests since the policy was set, from 0. */
  setPolicy(policy: (method: string, index: number) => ProxyAction): void;
  failures: number;
  /** While true, sent transactions are answered with their signature and never reach the chain. */
  dropping: boolean;
  close(): Promise<void>;
}

interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: number | string | null;
  method: string;
  params?: unknown[];
}

interface BlockConfig {
  transactionDetails?: 'full' | 'accounts' | 'signatures' | 'none';
  rewards?: boolean;
  maxSupportedTransactionVersion?: number;
}

function blockResponse(block: LocalBlock, config: BlockConfig): Record<string, unknown> {
  const details = config.transactionDetails ?? 'full';
  if (details === 'full')
    throw new RpcFailure(-32602, 'Invalid params: this test node serves transactionDetails none, signatures and accounts');
  // As in Agave: only encoding transactions checks their version; 'none' and 'signatures' never do.
  if (
    details === 'accounts' &&
    config.maxSupportedTransactionVersion === undefined &&
    block.transactions.some((tx) => tx.version !== 'legacy')
  ) {
    throw new RpcFailure(
      -32015,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
  const response: Record<string, unknown> = {
    blockHeight: block.blockHeight,
    blockTime: block.blockTime,
    blockhash: block.blockhash,
    parentSlot: Number(block.parentSlot),
    previousBlockhash: block.previousBlockhash,
  };
  if (details === 'signatures') response.signatures = block.transactions.map((tx) => tx.signatures[0]);
  if (details === 'accounts') {
    response.transactions = block.transactions.map((tx) => ({
      meta: tx.meta,
      transaction: { accountKeys: tx.accountKeys, signatures: tx.signatures },
      ...(config.maxSupportedTransactionVersion === undefined ? {} : { version: tx.version }),
    }));
  }
  if (config.rewards !== false) response.rewards = [];
  return response;
}

function answer(chain: LocalSolanaChain, method: string, params: unknown[], dropping: boolean): unknown {
  switch (method) {
    case 'getHealth':
      return 'ok';
    case 'getGenesisHash':
      return chain.genesisHash;
    case 'getSlot':
      return Number(chain.tip());
    case 'getBlockHeight':
      return (commitmentOf(params[0]) === 'finalized' ? chain.finalizedBlock : chain.latestBlock).blockHeight;
    case 'getLatestBlockhash': {
      const block = commitmentOf(params[0]) === 'finalized' ? chain.finalizedBlock : chain.latestBlock;
      return {
        context: { slot: Number(chain.tip()) },
        value: { blockhash: block.blockhash, lastValidBlockHeight: block.blockHeight + MAX_PROCESSING_AGE },
      };
    }
    case 'getBlock': {
      const slot = params[0];
      if (typeof slot !== 'number') throw new RpcFailure(-32602, 'Invalid params: slot must be a u64');
      const view = chain.view(BigInt(slot));
      if (view.kind === 'unavailable') throw new RpcFailure(-32004, `Block not available for slot ${slot}`);
      if (view.kind === 'skipped')
        throw new RpcFailure(-32007, `Slot ${slot} was skipped, or missing due to ledger jump to recent snapshot`);
      if (view.kind === 'cleaned-up')
        throw new RpcFailure(-32001, `Block ${slot} cleaned up, does not exist on node. First available block: ${slot + 1}`);
      return blockResponse(view.block, (params[1] ?? {}) as BlockConfig);
    }
    default: {
      const wallet = answerWalletMethod(chain, method, params, { dropping });
      if (!wallet) throw new RpcFailure(-32601, 'Method not found');
      return wallet.result;
    }
  }
}

function respond(chain: LocalSolanaChain, request: JsonRpcRequest, dropping: boolean): Record<string, unknown> {
  try {
    return { jsonrpc: '2.0', result: answer(chain, request.method, request.params ?? [], dropping), id: request.id };
  } catch (error) {
    if (!(error instanceof RpcFailure)) throw error;
    return {
      jsonrpc: '2.0',
      error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) },
      id: request.id,
    };
  }
}

/** On `port` of loopback; 0 (the default): a free one. */
export async function startSolanaRpcServer(chain: LocalSolanaChain, port = 0): Promise<SolanaRpcServer> {
  const calls = new Map<string, number>();
  let policy: (method: string, index: number) => ProxyAction = () => 'forward';
  let index = 0;
  const rpc: SolanaRpcServer = {
    url: '',
    calls,
    totalCalls: () => [...calls.values()].reduce((sum, n) => sum + n, 0),
    resetCalls: () => calls.clear(),
    setPolicy(next) {
      policy = next;
      index = 0;
    },
    failures: 0,
    dropping: false,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const reply = (response: ServerResponse, body: unknown) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonRpcRequest | JsonRpcRequest[];
      const requests = Array.isArray(parsed) ? parsed : [parsed];
      for (const r of requests) calls.set(r.method, (calls.get(r.method) ?? 0) + 1);
      const action = policy(requests[0]?.method ?? '', index++);
      if (action === 'hang') {
        rpc.failures += 1;
        return;
      }
      if (action !== 'forward' && 'status' in action) {
        rpc.failures += 1;
        response.writeHead(action.status, { 'content-type': 'text/plain' }).end('injected failure');
        return;
      }
      // Answered when the delay is over, from the chain as it is then, as a slow node would.
      setTimeout(
        () => {
          const answers = requests.map((r) => respond(chain, r, rpc.dropping));
          reply(response, Array.isArray(parsed) ? answers : answers[0]);
        },
        action === 'forward' ? 0 : action.delayMs,
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  rpc.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return rpc;
}
