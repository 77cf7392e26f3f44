// Write-ahead Tron writes from the relayer (signer/chainWrites/tronChainWriter.ts) against the loopback stand-in
// of java-tron's HTTP wallet API (test/support/tron/tronWalletNode.ts) and a real Postgres: one transaction per
// intent however often a pass runs or a process dies, a replacement only for an expired transaction the solidified
// chain never took, a reverted one recorded failed with its fee, and the node's errors told apart.
import { createHash, randomBytes } from 'node:crypto';
import { utils as tronUtils, TronWeb } from 'tronweb';
import { encodeAbiParameters } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTronChainWriter, type TronChainWriterDeps } from '../../../signer/chainWrites/tronChainWriter';
import { tronRelayer, type TronRelayer } from '../../../signer/chainWrites/tronRelayer';
import { createTronWalletApi, TronApiError } from '../../../activities/http/tronWalletApi';
import { loadChainsConfig } from '../../../config/chains';
import { findChainIntent, type TronCall } from '../../../db/repositories/chainIntents';
import { tronAddressToEvmHex } from '../../../domain/addresses/tron';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { startTronWalletNode, type TronWalletNode } from '../../support/tron/tronWalletNode';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const RECIPIENT = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

let db: TestDatabase;
let node: TronWalletNode;
let relayer: TronRelayer;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all([db?.drop(), node?.close()]);
});
beforeEach(async () => {
  await node?.close();
  node = await startTronWalletNode();
  relayer = tronRelayer(randomBytes(32).toString('hex'));
});

const api = (timeoutMs = 2_000) => createTronWalletApi({ fullNodeUrl: node.url, timeoutMs });
const writer = (overrides: Partial<TronChainWriterDeps> = {}) =>
  createTronChainWriter({ sql: db.sql, api: api(), relayer, mode: 'test', expirationMs: 60_000, ...overrides });

const transferCall = (amount: bigint): TronCall => ({
  contract: USDT,
  functionSelector: 'transfer(address,uint256)',
  parameter: encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [tronAddressToEvmHex(RECIPIENT), amount]).slice(2),
  feeLimit: '100000000',
  callValue: '0',
});

let intents = 0;
const nextId = () => `sweep:tron:test-${process.pid}-${intents++}`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** Blocks after which the solidified head is past a 60 s expiration set from it. */
const PAST_EXPIRATION = 22;

describe('Tron chain writer', () => {
  it('signs and stores the transaction before sending it, and counts it final once solidified', async () => {
    const w = writer();
    const id = nextId();
    await w.prepare(id, transferCall(100n));
    const signed = (await w.sign(id)).intent;
    expect(signed).toMatchObject({ status: 'signed', chain: 'tron', sender: relayer.address, mode: 'test' });
    expect(node.broadcasts.size).toBe(0);
    // The stored bytes are the signed Transaction: its txID is sha256(raw_data), signed by the relayer, calling what was prepared.
    const stored = (
      globalThis as unknown as {
        TronWebProto: {
          Transaction: {
            deserializeBinary(b: Uint8Array): {
              getRawData(): { serializeBinary(): Uint8Array; getExpiration(): number; getFeeLimit(): number };
            };
          };
        };
      }
    ).TronWebProto.Transaction.deserializeBinary(Buffer.from(signed.wireTransaction as string, 'hex'));
    expect(sha256(stored.getRawData().serializeBinary())).toBe(signed.signature);
    expect(stored.getRawData().getExpiration()).toBe(signed.expiresAt?.getTime());
    expect(stored.getRawData().getFeeLimit()).toBe(100_000_000);
    const sent = (await w.advance(id)).intent;
    expect(sent).toMatchObject({ status: 'broadcast', signature: signed.signature, wireTransaction: signed.wireTransaction });
    const raw = tronUtils.deserializeTx.deserializeTransaction(
      'TriggerSmartContract',
      Buffer.from(node.rawData(signed.signature as string) as Uint8Array).toString('hex'),
    );
    expect(raw).toMatchObject({ fee_limit: 100_000_000, expiration: signed.expiresAt?.getTime() });
    const { type, parameter } = raw.contract[0] as { type: string; parameter: { value: Record<string, string> } };
    expect(type).toBe('TriggerSmartContract');
    expect(Object.fromEntries(Object.entries(parameter.value).map(([key, value]) => [key, String(value).toLowerCase()]))).toMatchObject({
      owner_address: relayer.hexAddress,
      contract_address: TronWeb.address.toHex(USDT).toLowerCase(),
      data: `a9059cbb${transferCall(100n).parameter}`,
    });
    node.mine(1);
    expect((await w.advance(id)).intent).toMatchObject({ status: 'confirmed', blockNumber: node.head(), feePaid: 345_000n });
    node.mineEmpty(2);
    const final = (await w.advance(id)).intent;
    expect(final).toMatchObject({ status: 'finalized', signature: signed.signature, feePaid: 345_000n, supersededSignatures: [] });
    expect((await w.advance(id)).intent.status).toBe('finalized');
    expect(node.landedCount()).toBe(1);
  });

  it('a process killed after signing sends the very bytes it stored, and the chain holds one transaction', async () => {
    const id = nextId();
    await writer().prepare(id, transferCall(40n));
    const signed = (await writer().sign(id)).intent;
    // A fresh writer, as after a restart: it signs nothing new and sends what is stored.
    const resumed = (await writer().advance(id)).intent;
    expect(resumed).toMatchObject({ status: 'broadcast', signature: signed.signature, wireTransaction: signed.wireTransaction });
    expect((await writer().sign(id)).intent.signature).toBe(signed.signature);
    node.mine(3);
    expect((await writer().advance(id)).intent.status).toBe('finalized');
    expect([...node.broadcasts.keys()]).toEqual([signed.signature]);
    expect(node.landedCount()).toBe(1);
  });

  it('takes a duplicate answer to a resend as sent', async () => {
    const w = writer();
    const id = nextId();
    await w.prepare(id, transferCall(5n));
    const first = (await w.advance(id)).intent;
    // Unseen in any block: the pass sends the same bytes again, and the node answers DUP_TRANSACTION_ERROR.
    const again = (await w.advance(id)).intent;
    expect(again).toMatchObject({ status: 'broadcast', signature: first.signature });
    expect(node.broadcasts.get(first.signature as string)).toBe(2);
    node.mine(3);
    expect((await w.advance(id)).intent.status).toBe('finalized');
  });

  it('signs one replacement, keeping the old txID, only once the expired transaction is unknown past the solidified expiration', async () => {
    const w = writer();
    const id = nextId();
    await w.prepare(id, transferCall(7n));
    const lost = (await w.advance(id)).intent;
    node.dropPool();
    // Still able to land: the pass sends the same bytes again, then the node loses them once more.
    node.mineEmpty(5);
    expect((await w.advance(id)).intent.signature).toBe(lost.signature);
    node.dropPool();
    node.mineEmpty(PAST_EXPIRATION);
    // The stored bytes are now refused as expired: no error, and no new signature from a broadcast alone.
    expect((await w.broadcast(id)).signature).toBe(lost.signature);
    const replaced = (await w.advance(id)).intent;
    expect(replaced).toMatchObject({ status: 'broadcast', supersededSignatures: [lost.signature] });
    expect(replaced.signature).not.toBe(lost.signature);
    expect((await w.advance(id)).intent.supersededSignatures).toEqual([lost.signature]);
    node.mine(3);
    expect((await w.advance(id)).intent).toMatchObject({
      status: 'finalized',
      signature: replaced.signature,
      supersededSignatures: [lost.signature],
    });
    expect(node.landed(lost.signature as string)).toBeUndefined();
    expect(node.landedCount()).toBe(1);
  });

  it('sends the same bytes again when the block that held them is replaced before it solidified', async () => {
    const w = writer();
    const id = nextId();
    await w.prepare(id, transferCall(11n));
    const sent = (await w.advance(id)).intent;
    node.mine(1);
    expect((await w.advance(id)).intent).toMatchObject({ status: 'confirmed', blockNumber: node.head() });
    node.reorg(node.head());
    const back = (await w.advance(id)).intent;
    expect(back).toMatchObject({ status: 'broadcast', signature: sent.signature, blockNumber: null, feePaid: null });
    expect(node.broadcasts.get(sent.signature as string)).toBe(2);
    node.mine(3);
    expect((await w.advance(id)).intent).toMatchObject({ status: 'finalized', signature: sent.signature, supersededSignatures: [] });
    expect(node.landedCount()).toBe(1);
  });

  it.each(['REVERT', 'OUT_OF_ENERGY'] as const)(
    'records a transaction that ended in %s as failed once solidified, with the fee it burned',
    async (result) => {
      const w = writer();
      const id = nextId();
      await w.prepare(id, transferCall(9n));
      await w.advance(id);
      node.mine(1, () => ({ result, fee: 2_873_400n }));
      expect((await w.advance(id)).intent.status).toBe('confirmed');
      node.mineEmpty(2);
      const failed = (await w.advance(id)).intent;
      expect(failed).toMatchObject({ status: 'failed', feePaid: 2_873_400n, error: { result, message: 'REVERT opcode executed' } });
      expect((await w.advance(id)).intent.status).toBe('failed');
    },
  );

  describe('node errors', () => {
    const prepared = async () => {
      const id = nextId();
      await writer().prepare(id, transferCall(1n));
      await writer().sign(id);
      return id;
    };
    const failure = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TronApiError);
      return error as TronApiError;
    };

    it('a refused broadcast is an error for an operator; the row keeps the same bytes', async () => {
      const id = await prepared();
      const before = await findChainIntent(db.sql, id);
      node.setPolicy((path) =>
        path === '/wallet/broadcasthex'
          ? { body: { result: false, code: 'CONTRACT_VALIDATE_ERROR', message: 'balance is not sufficient' } }
          : 'answer',
      );
      const error = await failure(writer().broadcast(id));
      expect(error).toMatchObject({ kind: 'refused', retryable: false });
      expect(error.message).toMatch(/CONTRACT_VALIDATE_ERROR/);
      expect(await findChainIntent(db.sql, id)).toMatchObject({
        status: 'signed',
        signature: before?.signature,
        wireTransaction: before?.wireTransaction,
      });
    });

    it('a busy node, a 5xx and a timeout are worth retrying', async () => {
      const id = await prepared();
      node.setPolicy(() => ({ body: { result: false, code: 'SERVER_BUSY', message: 'Server busy' } }));
      expect(await failure(writer().broadcast(id))).toMatchObject({ kind: 'unavailable', retryable: true });
      node.setPolicy(() => ({ status: 503 }));
      expect(await failure(writer().observe(id))).toMatchObject({ kind: 'unavailable', retryable: true });
      node.setPolicy(() => 'hang');
      const timedOut = await failure(writer({ api: api(200) }).observe(id));
      expect(timedOut).toMatchObject({ kind: 'unavailable', retryable: true });
      expect(timedOut.message).toMatch(/no answer within 200 ms/);
      node.setPolicy(() => 'answer');
      expect((await writer().advance(id)).intent.status).toBe('broadcast');
    });

    it('a node error body is a refusal and an unpublished shape is malformed', async () => {
      const id = await prepared();
      node.setPolicy(() => ({ body: { Error: 'class org.tron.core.exception.BadItemException : txid is invalid' } }));
      expect(await failure(writer().observe(id))).toMatchObject({ kind: 'refused' });
      node.setPolicy(() => ({ body: { blockID: 'not a block' } }));
      expect(await failure(writer().observe(id))).toMatchObject({ kind: 'malformed', retryable: true });
      node.setPolicy((path) => (path.endsWith('gettransactioninfobyid') ? { body: { id: 'ab'.repeat(32), blockNumber: 1 } } : 'answer'));
      expect((await failure(writer().observe(id))).message).toMatch(/another transaction/);
    });
  });

  it('refuses a call it could not sign as given, storing nothing', async () => {
    const id = nextId();
    await expect(writer().prepare(id, { ...transferCall(1n), contract: 'T-not-an-address' })).rejects.toThrow();
    await expect(writer().prepare(id, { ...transferCall(1n), parameter: '0xzz' })).rejects.toThrow(/hex/);
    await expect(writer().prepare(id, { ...transferCall(1n), feeLimit: '0' })).rejects.toThrow(/feeLimit/);
    await expect(writer().prepare(id, { kind: 'transfer', to: 'T-not-an-address', amount: '1' })).rejects.toThrow();
    await expect(writer().prepare(id, { kind: 'transfer', to: 'TUg28KYvCXWW81EqMUeZvCZmZw2BChk1HQ', amount: '0' })).rejects.toThrow(
      /more than 0/,
    );
    await expect(writer().prepare(id, { kind: 'transfer', to: 'TUg28KYvCXWW81EqMUeZvCZmZw2BChk1HQ', amount: '1.5' })).rejects.toThrow(
      /amount/,
    );
    expect(await findChainIntent(db.sql, id)).toBeUndefined();
  });
});

describe('Tron intents in chain_intents', () => {
  const row = (columns: Record<string, unknown>) => ({
    id: nextId(),
    chain: 'tron',
    mode: 'test',
    sender: 'TUg28KYvCXWW81EqMUeZvCZmZw2BChk1HQ',
    call: db.sql.json({ ...transferCall(1n) }),
    ...columns,
  });
  const signed = { status: 'signed', signature: 'ab'.repeat(32), wire_transaction: '0a02', expires_at: new Date() };

  it('keeps signed bytes, txID and expiration together, and no nonce or block height on a Tron row', async () => {
    await db.sql`insert into chain_intents ${db.sql(row({ ...signed, signature: randomBytes(32).toString('hex') }))}`;
    for (const broken of [{ expires_at: null }, { wire_transaction: null }, { nonce: 0 }, { last_valid_block_height: 1 }]) {
      await expect(
        db.sql`insert into chain_intents ${db.sql(row({ ...signed, signature: randomBytes(32).toString('hex'), ...broken }))}`,
      ).rejects.toThrow(/chain_intents_signed_bytes/);
    }
    await expect(db.sql`insert into chain_intents ${db.sql(row({ expires_at: new Date() }))}`).rejects.toThrow(
      /chain_intents_signed_bytes/,
    );
    await expect(db.sql`insert into chain_intents ${db.sql(row({ call: null }))}`).rejects.toThrow(/chain_intents_evm_fields/);
  });
});

describe('Tron HTTP API configuration', () => {
  it('reads the wallet API per network, the solidified view on the same host unless given', () => {
    expect(loadChainsConfig({}).tronHttpApi).toEqual({});
    expect(loadChainsConfig({ TRON_HTTP_API_URL_MAINNET: 'https://api.trongrid.io' }).tronHttpApi).toEqual({
      mainnet: { fullNodeUrl: 'https://api.trongrid.io', solidityUrl: 'https://api.trongrid.io' },
    });
    expect(
      loadChainsConfig({ TRON_HTTP_API_URL_TESTNET: 'http://node:8090', TRON_SOLIDITY_API_URL_TESTNET: 'http://node:8091' }).tronHttpApi
        .testnet,
    ).toEqual({
      fullNodeUrl: 'http://node:8090',
      solidityUrl: 'http://node:8091',
    });
  });

  it('refuses a URL that is not HTTP(S), and a solidified view without the wallet API', () => {
    expect(() => loadChainsConfig({ TRON_HTTP_API_URL_MAINNET: 'ws://node:8090' })).toThrow(/TRON_HTTP_API_URL_MAINNET/);
    expect(() => loadChainsConfig({ TRON_SOLIDITY_API_URL_TESTNET: 'http://node:8091' })).toThrow(
      /TRON_SOLIDITY_API_URL_TESTNET: needs TRON_HTTP_API_URL_TESTNET/,
    );
  });
});

describe('Tron relayer key', () => {
  it('derives the published address of keccak256("cow"), in base58 and 41-hex, as TronWeb does', () => {
    const key = 'c85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
    const account = tronRelayer(key);
    // java-tron's test account (ProgramInvokeMockImpl, witness key of its system tests) and TRON's TIP-712 example "Cow".
    expect(account.hexAddress).toBe('41cd2a3d9f938e13cd947ec05abc7fe734df8dd826');
    expect(account.address).toBe('TUg28KYvCXWW81EqMUeZvCZmZw2BChk1HQ');
    expect(TronWeb.address.fromPrivateKey(key)).toBe(account.address);
    const txId = sha256(randomBytes(40));
    expect(tronUtils.crypto.ecRecover(txId, account.signTxId(txId)).toLowerCase()).toBe(account.hexAddress);
  });

  it('refuses a key that is not 64 hex digits of a valid scalar, without echoing it', () => {
    for (const bad of ['', '0x' + 'ab'.repeat(32), 'ab'.repeat(31), '0'.repeat(64), 'f'.repeat(64)]) {
      expect(() => tronRelayer(bad)).toThrow(/^the Tron relayer key is not a secp256k1 private key of 64 hex digits$/);
    }
  });
});

describe('an expired transaction a node cannot find', () => {
  /** Sends a transfer through `w` and lets a block take it; then the chain moves past its expiration. */
  async function landThenExpire(w: ReturnType<typeof writer>, id: string) {
    await w.prepare(id, transferCall(13n));
    const sent = (await w.advance(id)).intent;
    node.mine(1);
    node.mineEmpty(PAST_EXPIRATION);
    expect(node.landed(sent.signature as string)).toBeDefined();
    return sent;
  }
  const withoutHistory = (path: string) => (path.endsWith('/gettransactioninfobyid') ? { body: {} } : 'answer');

  it('a node without the transaction in its history never makes it land twice: the solidified blocks show it', async () => {
    const w = writer();
    const id = nextId();
    const sent = await landThenExpire(w, id);
    node.setPolicy(withoutHistory);
    const held = await w.advance(id);
    node.mine(3);
    await w.advance(id);
    expect(node.landedCount()).toBe(1);
    expect(await findChainIntent(db.sql, id)).toMatchObject({ signature: sent.signature, supersededSignatures: [] });
    expect(held.deferred).toMatch(/lacks that history/);
  });

  it('a node whose solidified blocks stop before the expiration proves nothing: nothing is signed again', async () => {
    const w = writer();
    const id = nextId();
    const sent = await landThenExpire(w, id);
    // A pool member behind the others: its head is the pool's, its transaction index and blocks are not (it serves
    // the reference block, then nothing after it).
    let blockCalls = 0;
    node.setPolicy((path) => (path === '/walletsolidity/getblockbylimitnext' && blockCalls++ > 0 ? { body: {} } : withoutHistory(path)));
    const held = await w.advance(id);
    node.mine(3);
    await w.advance(id);
    expect(node.landedCount()).toBe(1);
    expect(await findChainIntent(db.sql, id)).toMatchObject({ signature: sent.signature, supersededSignatures: [] });
    expect(held.deferred).toMatch(/do not reach past the expiration/);
  });

  it('looks every superseded txID up on every pass, and follows the one that landed', async () => {
    const w = writer();
    const id = nextId();
    await w.prepare(id, transferCall(17n));
    const first = (await w.advance(id)).intent;
    // As a version that took one node's word would have left it: the first txID set aside, a second one signed.
    await db.sql`update chain_intents set status = 'prepared', superseded_signatures = array[signature], signature = null,
      wire_transaction = null, expires_at = null where id = ${id}`;
    await w.sign(id);
    node.mine(1);
    node.mineEmpty(3);
    expect(await findChainIntent(db.sql, id).then((intent) => intent?.supersededSignatures)).toEqual([first.signature]);
    expect((await w.advance(id)).intent).toMatchObject({ status: 'finalized', signature: first.signature });
  });
});
