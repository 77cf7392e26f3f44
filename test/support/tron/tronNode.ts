// A stand-in for a java-tron full node's JSON-RPC (`/jsonrpc`) on loopback, since no Tron node runs here. It
// serves a scripted chain in the shapes recorded from real nodes (test/fixtures/tron/, sources in its README):
// block ids whose first 8 bytes are the height, 0x-prefixed txids, TRC-20 Transfer logs with 20-byte addresses
// without the 0x41 prefix. Tests advance the head, inject transfers, replace blocks (reorg), and make calls
// fail, hang or refuse a range, while every request is counted per method.
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tronAddressToEvmHex } from '../../../domain/addresses/tron';
import { recorded } from '../../fixtures/tron';

const chainIdFixture = recorded.nile.chainId;
const rangeErrorFixture = recorded.errors.rangeError;
const usdtLogFixture = recorded.mainnet.usdtLogs;
const blockFixture = recorded.nile.getBlockByNumber;

const TRANSFER_TOPIC = usdtLogFixture.result[0]?.topics[0] as string;
const BLOCK_TIME_S = 3;

/** A TRC-20 transfer to put on chain; addresses in base58 `T…`, as a wallet shows them. */
export interface TransferSpec {
  contract: string;
  from: string;
  to: string;
  amount: bigint;
}

/** Where a transfer landed, in the forms the indexer stores: ids without 0x. */
export interface MinedTransfer {
  txId: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
}

/** What to do with one request: answer it (possibly late), fail with an HTTP status or a JSON-RPC error, or never answer. */
export type NodeAction = 'answer' | 'hang' | { status: number } | { rpcError: { code: number; message: string } } | { delayMs: number };

interface ScriptedLog {
  contract: string;
  from: string;
  to: string;
  amount: bigint;
  txId: string;
}

interface ScriptedBlock {
  number: bigint;
  hash: string;
  parentHash: string;
  timestamp: number;
  logs: ScriptedLog[];
}

export interface TronTestNodeOptions {
  /** eth_chainId; the recorded Nile value unless given. */
  chainId?: string;
  /** Blocks on top of the first one at start. */
  initialBlocks?: number;
  /** java-tron's maxBlockRange for eth_getLogs (5000 by default on real nodes). */
  maxBlockRange?: number;
  /** Answer block timestamps in milliseconds, as java-tron did before it switched to seconds. */
  legacyMillisecondTimestamps?: boolean;
}

export interface TronTestNode {
  url: string;
  head(): bigint;
  mine(blocks: number): void;
  /** Mines one block holding one transaction (and one Transfer log) per spec, in order. */
  transfer(...specs: TransferSpec[]): MinedTransfer[];
  /**
   * Replaces every block from `fromNumber` up with `length` new ones (default: as many as were removed) on
   * another branch. `carry` re-mines the removed transactions, same ids, in the first new block.
   */
  reorg(fromNumber: bigint, options?: { length?: number; carry?: boolean }): void;
  setPolicy(policy: (method: string, index: number) => NodeAction): void;
  calls: Map<string, number>;
  totalCalls(): number;
  resetCalls(): void;
  failures: number;
  close(): Promise<void>;
}

const hexQuantity = (n: bigint | number) => `0x${n.toString(16)}`;
const pad32 = (hex20: string) => `0x${'0'.repeat(24)}${hex20.slice(2)}`;

export async function startTronTestNode(options: TronTestNodeOptions = {}): Promise<TronTestNode> {
  const seed = randomBytes(8).toString('hex');
  let branch = 0;
  const template = blockFixture.result;
  const first: ScriptedBlock = {
    number: BigInt(template.number),
    hash: template.hash,
    parentHash: template.parentHash,
    timestamp: Math.floor(Date.now() / 1000) - BLOCK_TIME_S * ((options.initialBlocks ?? 30) + 1),
    logs: [],
  };
  const blocks: ScriptedBlock[] = [first];
  const tip = () => blocks[blocks.length - 1] as ScriptedBlock;
  const blockAt = (number: bigint) => (number < first.number ? undefined : blocks[Number(number - first.number)]);

  // A block id as Tron makes it: the height in the first 8 bytes, then 24 bytes of the block's hash.
  const append = (logs: ScriptedLog[]): ScriptedBlock => {
    const parent = tip();
    const number = parent.number + 1n;
    const digest = createHash('sha256').update(`${seed}:${branch}:${number}`).digest('hex').slice(0, 48);
    const block = {
      number,
      hash: `0x${number.toString(16).padStart(16, '0')}${digest}`,
      parentHash: parent.hash,
      timestamp: parent.timestamp + BLOCK_TIME_S,
      logs,
    };
    blocks.push(block);
    return block;
  };
  for (let i = 0; i < (options.initialBlocks ?? 30); i++) append([]);

  const blockResult = (block: ScriptedBlock) => ({
    ...template,
    number: hexQuantity(block.number),
    hash: block.hash,
    parentHash: block.parentHash,
    timestamp: hexQuantity(options.legacyMillisecondTimestamps ? block.timestamp * 1000 : block.timestamp),
    transactions: [...new Set(block.logs.map((log) => `0x${log.txId}`))],
  });

  // The recorded mainnet USDT log, with the keys newer nodes add (blockTimestamp) from the current-shape recording.
  const logTemplate = { ...recorded.nile.getLogsCurrentShape.result[0], ...usdtLogFixture.result[0] };
  const logElements = (block: ScriptedBlock) =>
    block.logs.map((log, index) => ({
      ...logTemplate,
      address: log.contract,
      blockHash: block.hash,
      blockNumber: hexQuantity(block.number),
      blockTimestamp: hexQuantity(block.timestamp),
      data: `0x${log.amount.toString(16).padStart(64, '0')}`,
      logIndex: hexQuantity(index),
      topics: [TRANSFER_TOPIC, pad32(log.from), pad32(log.to)],
      transactionHash: `0x${log.txId}`,
      transactionIndex: hexQuantity(index),
    }));

  const blockNumberParam = (tag: unknown): bigint | undefined => {
    if (tag === 'latest') return tip().number;
    return typeof tag === 'string' && /^0x[0-9a-fA-F]+$/.test(tag) ? BigInt(tag) : undefined;
  };

  class RpcFault extends Error {
    constructor(
      readonly code: number,
      message: string,
    ) {
      super(message);
    }
  }

  const getLogs = (filter: {
    fromBlock?: string;
    toBlock?: string;
    address?: string | string[];
    topics?: (string | string[] | null)[];
  }) => {
    const from = blockNumberParam(filter.fromBlock ?? 'latest');
    const to = blockNumberParam(filter.toBlock ?? 'latest');
    if (from === undefined || to === undefined) throw new RpcFault(-32602, 'invalid block number');
    if (from > to) throw new RpcFault(-32602, 'please verify: fromBlock <= toBlock');
    const maxRange = BigInt(options.maxBlockRange ?? 5000);
    if (to - from > maxRange) {
      throw new RpcFault(rangeErrorFixture.error.code, rangeErrorFixture.error.message.replace('5000', maxRange.toString()));
    }
    const addresses =
      filter.address === undefined
        ? undefined
        : new Set((Array.isArray(filter.address) ? filter.address : [filter.address]).map((a) => a.toLowerCase()));
    const topic0 = filter.topics?.[0];
    const topics =
      topic0 === undefined || topic0 === null
        ? undefined
        : new Set((Array.isArray(topic0) ? topic0 : [topic0]).map((t) => t.toLowerCase()));
    const result = [];
    for (let number = from; number <= to; number++) {
      const block = blockAt(number);
      if (!block) break;
      result.push(
        ...logElements(block).filter(
          (log) => (!addresses || addresses.has(log.address)) && (!topics || topics.has(log.topics[0] as string)),
        ),
      );
    }
    return result;
  };

  const answer = (method: string, params: unknown[]): unknown => {
    switch (method) {
      case 'eth_chainId':
        return options.chainId ?? chainIdFixture.result;
      case 'eth_blockNumber':
        return hexQuantity(tip().number);
      case 'eth_getBlockByNumber': {
        const number = blockNumberParam(params[0]);
        if (number === undefined) throw new RpcFault(-32602, 'invalid block number');
        const block = blockAt(number);
        return block ? blockResult(block) : null;
      }
      case 'eth_getLogs':
        return getLogs((params[0] ?? {}) as Parameters<typeof getLogs>[0]);
      default:
        throw new RpcFault(-32601, `the method ${method} does not exist/is not available`);
    }
  };

  const calls = new Map<string, number>();
  let policy: (method: string, index: number) => NodeAction = () => 'answer';
  let index = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; method: string; params?: unknown[] };
      calls.set(body.method, (calls.get(body.method) ?? 0) + 1);
      const action = policy(body.method, index++);
      if (action === 'hang') {
        node.failures += 1;
        return;
      }
      if (action !== 'answer' && 'status' in action) {
        node.failures += 1;
        response.writeHead(action.status, { 'content-type': 'text/plain' }).end('injected failure');
        return;
      }
      const reply = (payload: object) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, ...payload }));
      if (action !== 'answer' && 'rpcError' in action) {
        node.failures += 1;
        reply({ error: action.rpcError });
        return;
      }
      setTimeout(
        () => {
          try {
            reply({ result: answer(body.method, body.params ?? []) });
          } catch (error) {
            if (!(error instanceof RpcFault)) throw error;
            reply({ error: { code: error.code, message: error.message } });
          }
        },
        action === 'answer' ? 0 : action.delayMs,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const node: TronTestNode = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jsonrpc`,
    head: () => tip().number,
    mine(count) {
      for (let i = 0; i < count; i++) append([]);
    },
    transfer(...specs) {
      const logs = specs.map((spec) => ({
        contract: tronAddressToEvmHex(spec.contract),
        from: tronAddressToEvmHex(spec.from),
        to: tronAddressToEvmHex(spec.to),
        amount: spec.amount,
        txId: randomBytes(32).toString('hex'),
      }));
      const block = append(logs);
      return logs.map((log, logIndex) => ({ txId: log.txId, logIndex, blockNumber: block.number, blockHash: block.hash.slice(2) }));
    },
    reorg(fromNumber, reorgOptions = {}) {
      const removed = blocks.splice(Number(fromNumber - first.number));
      if (blocks.length === 0) throw new Error('cannot replace the first scripted block');
      branch += 1;
      const length = reorgOptions.length ?? removed.length;
      const carried = reorgOptions.carry ? removed.flatMap((block) => block.logs) : [];
      for (let i = 0; i < length; i++) append(i === 0 ? carried : []);
    },
    setPolicy(next) {
      policy = next;
      index = 0;
    },
    calls,
    totalCalls: () => [...calls.values()].reduce((sum, n) => sum + n, 0),
    resetCalls: () => calls.clear(),
    failures: 0,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return node;
}
