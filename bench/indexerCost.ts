// Indexer RPC calls per block and memory with 10, 1,000 and 100,000 watched addresses on the local Hardhat
// chain: the same 40 blocks (a deposit to a watched address in every other one) followed block by block, every
// JSON-RPC request counted by a proxy in front of the node. Calls per block must not grow with the watch set.
// Once more subscribed to new heads, where following the head costs one eth_getLogs per block.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Address } from 'viem';
import { CHAIN_FACTS } from '../domain/chains/chains';
import { insertMerchant } from '../db/repositories/merchants';
import { projectRoot } from '../toolchain/paths';
import type { LocalChain } from '../toolchain/localChain/localChain';
import { startRpcProxy, type RpcProxy } from '../test/support/evm/rpcProxy';
import type { BenchDatabase, BenchEnvironment } from './environment';
import { progress, type Row } from './report';

export const WATCH_COUNTS = [10, 1_000, 100_000];
/** The subscribed indexer is measured once, with as many watches as the middle polling row, to compare with it. */
const SUBSCRIBED_WATCHES = 1_000;
const BLOCKS = 40;
const PAYER = 1;
const SCENARIO_TIMEOUT_MS = 120_000;
const FOLLOW_TIMEOUT_MS = 30_000;

export interface ChainTokens {
  usdc: Address;
  usdt: Address;
}

export async function benchIndexer(env: BenchEnvironment, chain: LocalChain, tokens: ChainTokens): Promise<Row[]> {
  const rows: Row[] = [];
  for (const count of WATCH_COUNTS) rows.push(await benchPolling(env, chain, tokens, count));
  rows.push(await benchSubscribed(env, chain, tokens, SUBSCRIBED_WATCHES));
  return rows;
}

/** Polling: the blocks are mined first, then the indexer reads them one range (one block) at a time. */
async function benchPolling(env: BenchEnvironment, chain: LocalChain, tokens: ChainTokens, count: number): Promise<Row> {
  const { db, watched } = await watchedDatabase(env, count);
  const startBlock = (await chain.blockNumber()) + 1n;
  await chain.mine(1);
  for (let i = 0; i < BLOCKS; i++)
    await chain.transfer(i % 4 === 0 ? tokens.usdt : tokens.usdc, PAYER, recipient(chain, watched, i), 1_000_000n);

  const proxy = await startRpcProxy(chain.rpcUrl);
  try {
    progress(`indexer with ${count.toLocaleString('en')} watched addresses: following ${BLOCKS} blocks`);
    const result = await runScenario(scenarioEnv(db, proxy, chain, tokens, startBlock), async (send) => {
      proxy.resetCalls();
      send('go');
    });
    return await costRow(`indexer, ${count.toLocaleString('en')} watched addresses`, count, result, db, proxy);
  } finally {
    await proxy.close();
  }
}

/**
 * Subscribed to newHeads on the node's websocket (one eth_subscribe, not through the proxy): each block is mined
 * after the indexer has read the one before, as when it follows a live chain.
 */
async function benchSubscribed(env: BenchEnvironment, chain: LocalChain, tokens: ChainTokens, count: number): Promise<Row> {
  const { db, watched } = await watchedDatabase(env, count);
  const startBlock = (await chain.blockNumber()) + 1n;
  const proxy = await startRpcProxy(chain.rpcUrl);
  try {
    progress(
      `indexer subscribed to new heads, ${count.toLocaleString('en')} watched addresses: following ${BLOCKS} blocks as they are mined`,
    );
    const ws = `ws://${new URL(chain.rpcUrl).host}`;
    const result = await runScenario({ ...scenarioEnv(db, proxy, chain, tokens, startBlock), WS_URLS_BASE_TESTNET: ws }, async (send) => {
      // Two blocks first: the read from the node's head that follows subscribing is over before counting.
      for (let i = 0; i < 2; i++) {
        await chain.mine(1);
        await untilIndexed(db, await chain.blockNumber());
      }
      proxy.resetCalls();
      for (let i = 0; i < BLOCKS; i++) {
        const sent = await chain.transfer(i % 4 === 0 ? tokens.usdt : tokens.usdc, PAYER, recipient(chain, watched, i), 1_000_000n);
        await untilIndexed(db, sent.blockNumber);
      }
      send('stop');
    });
    return await costRow(`indexer subscribed to new heads, ${count.toLocaleString('en')} watched addresses`, count, result, db, proxy);
  } finally {
    await proxy.close();
  }
}

/** A fresh database with `count` open sessions, each watching an address on base testnet. */
async function watchedDatabase(env: BenchEnvironment, count: number): Promise<{ db: BenchDatabase; watched: Address[] }> {
  progress(`indexer with ${count.toLocaleString('en')} watched addresses: preparing`);
  const db = await env.database();
  const merchant = await insertMerchant(db.sql, { name: 'Bench merchant', supportedTokens: { USDC: ['base'], USDT: ['base'] } });
  // Sessions and watches in two statements; addresses are hashes of the row number, lowercase like the watch set's.
  await db.sql`
    insert into sessions (id, merchant_id, mode, amount_usd_cents, webhook_url, supported_methods, supported_tokens, status, expires_at, created_at, updated_at)
    select 'cs_bench' || g, ${merchant.id}, 'test', 100, 'https://merchant.example/webhooks', '{}', '{}', 'awaiting_payment', now() + interval '1 day', now(), now()
    from generate_series(1, ${count}) g`;
  await db.sql`
    insert into deposit_watches (session_id, chain, network, address, watch_until)
    select 'cs_bench' || g, 'base', 'testnet', '0x' || substr(encode(sha256(convert_to('watch' || g, 'UTF8')), 'hex'), 1, 40), now() + interval '1 day'
    from generate_series(1, ${count}) g`;
  const watched = (await db.sql<{ address: Address }[]>`select address from deposit_watches order by session_id limit 10`).map(
    (r) => r.address,
  );
  return { db, watched };
}

/** A deposit to a watched address in every other block, a transfer to an unwatched one in the rest. */
function recipient(chain: LocalChain, watched: Address[], block: number): Address {
  return block % 2 === 0 ? (watched[block % watched.length] as Address) : chain.account(9).address;
}

function scenarioEnv(
  db: BenchDatabase,
  proxy: RpcProxy,
  chain: LocalChain,
  tokens: ChainTokens,
  startBlock: bigint,
): Record<string, string> {
  return {
    DATABASE_URL: db.url,
    RPC_URLS_BASE_TESTNET: proxy.url,
    CHAIN_ID_BASE_TESTNET: String(chain.chainId),
    TOKEN_USDC_BASE_TESTNET: `${tokens.usdc}:6`,
    TOKEN_USDT_BASE_TESTNET: `${tokens.usdt}:6`,
    INDEXER_START_BLOCK_BASE_TESTNET: startBlock.toString(),
    INDEXER_MAX_LOG_RANGE: '1',
    INDEXER_RPC_BACKOFF_MS: '20',
  };
}

async function untilIndexed(db: BenchDatabase, block: bigint): Promise<void> {
  const deadline = Date.now() + FOLLOW_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const [cursor] = await db.sql<
      { block_number: bigint }[]
    >`select block_number from indexer_cursors where chain = 'base' and network = 'testnet'`;
    if (cursor && cursor.block_number >= block) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the indexer did not reach block ${block} within ${FOLLOW_TIMEOUT_MS} ms`);
}

async function costRow(benchmark: string, count: number, result: ScenarioResult, db: BenchDatabase, proxy: RpcProxy): Promise<Row> {
  if (result.watches !== count) throw new Error(`the indexer watched ${result.watches} addresses, expected ${count}`);
  const deposits = await db.sql<{ n: number }[]>`select count(*)::int as n from deposits`;
  if (deposits[0]?.n !== BLOCKS / 2) throw new Error(`expected ${BLOCKS / 2} deposits, found ${deposits[0]?.n}`);
  const perBlock = proxy.totalCalls() / BLOCKS;
  const methods = [...proxy.calls.entries()].map(([method, n]) => `${method} ${n}`).join(', ');
  return {
    benchmark,
    figure: `${perBlock.toFixed(2)} RPC calls per block, RSS ${(result.rss / 2 ** 20).toFixed(0)} MiB (heap ${(result.heapUsed / 2 ** 20).toFixed(0)} MiB)`,
    detail: `${BLOCKS} blocks, ${BLOCKS / 2} deposits (base: ${CHAIN_FACTS.base.confirmations} confirmations): ${methods}`,
  };
}

interface ScenarioResult {
  watches: number;
  rss: number;
  heapUsed: number;
}

/** `onReady` gets the scenario's stdin: 'go' to read the mined blocks, 'stop' to end a subscribed run. */
function runScenario(env: Record<string, string>, onReady: (send: (command: string) => void) => Promise<void>): Promise<ScenarioResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/indexerScenario.ts'], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise<ScenarioResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`indexer scenario did not finish within ${SCENARIO_TIMEOUT_MS} ms`));
    }, SCENARIO_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`indexer scenario exited with ${code}`));
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { msg: string } & ScenarioResult;
      if (message.msg === 'ready') {
        onReady((command) => child.stdin.write(`${command}\n`)).catch((error: unknown) => {
          clearTimeout(timer);
          child.kill('SIGKILL');
          reject(error instanceof Error ? error : new Error(String(error)));
        });
      } else if (message.msg === 'done') {
        clearTimeout(timer);
        resolve(message);
      }
    });
  });
}
