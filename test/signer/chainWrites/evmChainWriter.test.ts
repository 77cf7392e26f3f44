// Write-ahead EVM writes from a relayer on a real Hardhat node (signer/chainWrites/evmChainWriter.ts): one
// transaction per nonce however often a pass runs or a process dies, a stuck transaction replaced with the same
// nonce and higher fees, a nonce another transaction took replaced by a fresh one once two providers show it, never
// on the word of a node without the transaction in its history (docs/settlement.md#never-signed-twice-evm-nonces), a
// reorganised block sent again.
import { createPublicClient, encodeFunctionData, erc20Abi, http, type Address, type Hash, type HDAccount, type PublicClient } from 'viem';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEvmChainWriter, type EvmChainWriterDeps } from '../../../signer/chainWrites/evmChainWriter';
import { findChainIntent } from '../../../db/repositories/chainIntents';
import { createLocalChain, type LocalChain } from '../../../toolchain/localChain/localChain';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { startRpcProxy, type JsonRpcRequest, type RpcProxy } from '../../support/evm/rpcProxy';

let chain: LocalChain;
let db: TestDatabase;
let token: Address;
let relayer: HDAccount;
let relayerIndex = 5;

beforeAll(async () => {
  [chain, db] = await Promise.all([createLocalChain(), createTestDatabase()]);
  token = await chain.deployToken({ symbol: 'USDC', decimals: 6 });
});
afterAll(async () => {
  await Promise.all([chain?.stop(), db?.drop()]);
});
beforeEach(async () => {
  // A relayer of its own per test: nonces start where that account's history is.
  await chain.setAutomine(true);
  relayer = chain.account(relayerIndex++);
  await chain.mint(token, relayer.address, 1_000_000n);
});

const writer = (overrides: Partial<EvmChainWriterDeps> = {}) =>
  createEvmChainWriter({
    sql: db.sql,
    client: chain.publicClient,
    account: relayer,
    chain: 'base',
    mode: 'test',
    chainId: chain.chainId,
    requiredConfirmations: 3,
    stuckAfterMs: 60_000,
    feeBumpPercent: 20,
    maxFeePerGasCap: 10n ** 12n,
    ...overrides,
  });

const transferCall = (amount: bigint, to: Address = chain.account(19).address) => ({
  to: token,
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
  value: '0',
});

/** Intent `id` prepared and signed, then its nonce taken by the key used elsewhere, mined before our bytes were ever sent. */
async function signedThenNonceTakenElsewhere(w: ReturnType<typeof writer>, id: string) {
  await w.prepare(id, transferCall(3n));
  const signed = (await w.sign(id)).intent;
  await chain.walletClientFor(relayerIndex - 1).sendTransaction({ to: chain.account(19).address, value: 1n, nonce: Number(signed.nonce) });
  return signed;
}

let proxies: RpcProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  proxies = [];
});

/**
 * Another provider in front of the same chain; `answer` makes it reply to some requests as a node without that
 * history, or one behind the others, would (undefined: pass the request on).
 */
async function anotherProvider(answer: (request: JsonRpcRequest) => { result: unknown } | undefined = () => undefined) {
  const proxy = await startRpcProxy(chain.rpcUrl);
  proxies.push(proxy);
  proxy.setPolicy(() => ({ respond: (request) => answer(request) ?? { forward: true } }));
  return createPublicClient({ transport: http(proxy.url) }) as PublicClient;
}
const withoutReceipts = (request: JsonRpcRequest) => (request.method === 'eth_getTransactionReceipt' ? { result: null } : undefined);

const balanceOf = (owner: Address) =>
  chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
const receiptOf = (hash: string) => chain.publicClient.getTransactionReceipt({ hash: hash as Hash }).catch(() => undefined);
let intents = 0;
const nextId = () => `sweep:base:test-${process.pid}-${intents++}`;

describe('EVM chain writer', () => {
  it("signs with the next nonce, sends, and counts the transaction final at the chain's depth", async () => {
    const w = writer();
    const id = nextId();
    await w.prepare(id, transferCall(100n));
    const first = await w.advance(id);
    expect(first.intent).toMatchObject({ status: 'broadcast', nonce: 0n, sender: relayer.address });
    expect((await w.advance(id)).intent).toMatchObject({ status: 'confirmed', signature: first.intent.signature });
    await chain.mine(2);
    const final = await w.advance(id);
    expect(final.intent).toMatchObject({ status: 'finalized', signature: first.intent.signature });
    expect(final.intent.blockNumber).toBe((await receiptOf(first.intent.signature as string))?.blockNumber);
    expect((await w.advance(id)).intent.status).toBe('finalized');
  });

  it('a process killed after signing sends the very bytes it stored, once', async () => {
    const id = nextId();
    await writer().prepare(id, transferCall(40n));
    const signed = await writer().sign(id);
    expect(signed.intent.status).toBe('signed');
    const before = await balanceOf(relayer.address);
    // A fresh writer, as after a restart: the same hash, the same nonce.
    const resumed = await writer().advance(id);
    expect(resumed.intent).toMatchObject({
      signature: signed.intent.signature,
      nonce: signed.intent.nonce,
      wireTransaction: signed.intent.wireTransaction,
    });
    await writer().broadcast(id);
    await chain.mine(3);
    expect((await writer().advance(id)).intent.status).toBe('finalized');
    expect(await balanceOf(relayer.address)).toBe(before - 40n);
  });

  it('hands out consecutive nonces, starting past what the chain mined from the key elsewhere', async () => {
    await chain.walletClientFor(relayerIndex - 1).sendTransaction({ to: chain.account(19).address, value: 1n });
    const w = writer();
    const [a, b] = [nextId(), nextId()];
    await w.prepare(a, transferCall(1n));
    await w.prepare(b, transferCall(2n));
    expect((await w.advance(a)).intent.nonce).toBe(1n);
    expect((await w.advance(b)).intent.nonce).toBe(2n);
  });

  it('replaces a stuck transaction with the same nonce and higher fees, and follows whichever is mined', async () => {
    await chain.setAutomine(false);
    const w = writer({ stuckAfterMs: 0 });
    const id = nextId();
    await w.prepare(id, transferCall(7n));
    const stuck = (await w.advance(id)).intent;
    const replaced = (await w.advance(id)).intent;
    expect(replaced.signature).not.toBe(stuck.signature);
    expect(replaced.nonce).toBe(stuck.nonce);
    expect(replaced.supersededSignatures).toEqual([stuck.signature]);
    await chain.mine(3);
    const final = (await writer().advance(id)).intent;
    expect(final).toMatchObject({ status: 'finalized', signature: replaced.signature, supersededSignatures: [stuck.signature] });
    expect(await receiptOf(stuck.signature as string)).toBeUndefined();
  });

  it('waits instead of paying past the gas price ceiling', async () => {
    const id = nextId();
    const w = writer({ maxFeePerGasCap: 1n });
    await w.prepare(id, transferCall(1n));
    const deferred = await w.advance(id);
    expect(deferred.deferred).toMatch(/ceiling/);
    expect(deferred.intent.status).toBe('prepared');
  });

  it('signs afresh with a new nonce once two providers show another transaction took the old one, keeping the old hash', async () => {
    const w = writer({ witness: await anotherProvider() });
    const id = nextId();
    const signed = await signedThenNonceTakenElsewhere(w, id);
    const resigned = (await w.advance(id)).intent;
    expect(resigned.nonce).toBe((signed.nonce as bigint) + 1n);
    expect(resigned.supersededSignatures).toEqual([signed.signature]);
    await chain.mine(3);
    expect((await w.advance(id)).intent).toMatchObject({ status: 'finalized', signature: resigned.signature });
  });

  it('records a transaction that reverted as failed once final', async () => {
    await chain.setAutomine(false);
    const w = writer();
    const balance = await balanceOf(relayer.address);
    const [a, b] = [nextId(), nextId()];
    // Both signed against the same balance before either is sent; mined together, the second has nothing left to move.
    await w.prepare(a, transferCall(balance));
    await w.prepare(b, transferCall(balance));
    await w.sign(a);
    await w.sign(b);
    await w.advance(a);
    await w.advance(b);
    await chain.mine(3);
    expect((await w.advance(a)).intent.status).toBe('finalized');
    expect((await w.advance(b)).intent).toMatchObject({ status: 'failed', error: { reverted: true } });
  });

  it('sends again what a reorganisation took out of the chain', async () => {
    const w = writer();
    const id = nextId();
    const snapshot = await chain.snapshot();
    await w.prepare(id, transferCall(9n));
    const sent = (await w.advance(id)).intent;
    expect((await w.advance(id)).intent.status).toBe('confirmed');
    await chain.revert(snapshot);
    expect(await receiptOf(sent.signature as string)).toBeUndefined();
    expect((await w.advance(id)).intent).toMatchObject({ status: 'broadcast', signature: sent.signature });
    expect(await receiptOf(sent.signature as string)).toBeDefined();
    await chain.mine(2);
    expect((await w.advance(id)).intent.status).toBe('finalized');
    expect(await findChainIntent(db.sql, id)).toMatchObject({ status: 'finalized', signature: sent.signature });
  });

  it('signs afresh when a reorganisation drops its mined transaction and another takes the nonce', async () => {
    const w = writer({ witness: await anotherProvider() });
    const id = nextId();
    const snapshot = await chain.snapshot();
    await w.prepare(id, transferCall(5n));
    const mined = (await w.advance(id)).intent;
    expect((await w.advance(id)).intent.status).toBe('confirmed');
    await chain.revert(snapshot);
    // On the new branch another transaction of the key takes the nonce before ours is sent again.
    await chain.walletClientFor(relayerIndex - 1).sendTransaction({ to: chain.account(19).address, value: 1n, nonce: Number(mined.nonce) });
    const resigned = (await w.advance(id)).intent;
    expect(resigned.nonce).toBe((mined.nonce as bigint) + 1n);
    expect(resigned.supersededSignatures).toEqual([mined.signature]);
    await chain.mine(3);
    expect((await w.advance(id)).intent).toMatchObject({ status: 'finalized', signature: resigned.signature });
  });
});

describe('a nonce used by a transaction the node cannot find', () => {
  /** Signs and sends a transfer to a payee of its own through `w`, mined at once; returns the payee's balance before. */
  async function sendThrough(w: ReturnType<typeof writer>, id: string, payee: Address) {
    const before = await balanceOf(payee);
    await w.prepare(id, transferCall(11n, payee));
    const sent = (await w.advance(id)).intent;
    await chain.mine(3);
    return { before, sent };
  }

  it('a node without the transaction in its history never makes it land twice: it waits', async () => {
    const w = writer({ client: await anotherProvider(withoutReceipts) });
    const id = nextId();
    const payee = chain.account(18).address;
    const { before, sent } = await sendThrough(w, id, payee);
    const held = await w.advance(id);
    await w.advance(id);
    await chain.mine(3);
    expect(await balanceOf(payee)).toBe(before + 11n);
    expect(await findChainIntent(db.sql, id)).toMatchObject({ nonce: sent.nonce, signature: sent.signature, supersededSignatures: [] });
    expect(held.deferred).toMatch(/no receipt for it: it lacks that history/);
  });

  it('two providers without that history: still nothing is signed again', async () => {
    const w = writer({ client: await anotherProvider(withoutReceipts), witness: await anotherProvider(withoutReceipts) });
    const id = nextId();
    const payee = chain.account(17).address;
    const { before, sent } = await sendThrough(w, id, payee);
    await w.advance(id);
    await w.advance(id);
    await chain.mine(3);
    expect(await balanceOf(payee)).toBe(before + 11n);
    expect(await findChainIntent(db.sql, id)).toMatchObject({ nonce: sent.nonce, signature: sent.signature });
  });

  it('follows the transaction on the second provider when the first lacks its history', async () => {
    const w = writer({ client: await anotherProvider(withoutReceipts), witness: await anotherProvider() });
    const id = nextId();
    const { sent } = await sendThrough(w, id, chain.account(16).address);
    expect((await w.advance(id)).intent).toMatchObject({ status: 'finalized', signature: sent.signature, nonce: sent.nonce });
  });

  it('another transaction with the nonce, on one RPC URL: waits instead of signing a new nonce', async () => {
    const w = writer();
    const id = nextId();
    const signed = await signedThenNonceTakenElsewhere(w, id);
    const held = await w.advance(id);
    expect(held.deferred).toMatch(/needs a second RPC URL/);
    expect(await findChainIntent(db.sql, id)).toMatchObject({ nonce: signed.nonce, signature: signed.signature, supersededSignatures: [] });
  });

  it('another transaction with the nonce, and a second provider behind the first: waits', async () => {
    const w = writer({
      witness: await anotherProvider((request) =>
        // A pool member that has not seen the block with the nonce: its count stops before it.
        request.method === 'eth_getTransactionCount' ? { result: '0x0' } : undefined,
      ),
    });
    const id = nextId();
    const signed = await signedThenNonceTakenElsewhere(w, id);
    const held = await w.advance(id);
    expect(held.deferred).toMatch(/last RPC URL does not count nonce/);
    expect(await findChainIntent(db.sql, id)).toMatchObject({ nonce: signed.nonce, signature: signed.signature });
  });
});
