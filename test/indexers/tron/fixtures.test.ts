// The indexer's decoding run over responses recorded from real Tron nodes (test/fixtures/tron/README.md), with
// tronweb's own address conversion as the independent check of the T… / 41… / 0x mapping.
import { TronWeb } from 'tronweb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { IndexerMetrics } from '../../../indexers/core/metrics';
import { decodeTransferLog } from '../../../indexers/tron/scanTransfers';
import { createTronRpc, type RawTronLog } from '../../../indexers/tron/tronRpc';
import { recorded } from '../../fixtures/tron';
import { startTronTestNode, type TronTestNode } from '../../support/tron/tronNode';
import { USDT } from './tronFixture';

const { usdtReceipt: receipt, usdtLogs: mainnetLogs, legacyBlock } = recorded.mainnet;
const viaTronweb = (topic: string) => TronWeb.address.fromHex(`41${topic.slice(-40)}`);

describe('Tron indexer: recorded mainnet responses', () => {
  test('the USDT Transfer log of a mainnet receipt decodes to T-addresses, the txid and the exact amount', () => {
    const log = receipt.result.logs[0] as RawTronLog;
    expect(TronWeb.address.fromHex(`41${log.address.slice(2)}`)).toBe(USDT);
    const transfer = decodeTransferLog(log, 'USDT');
    expect(transfer).toEqual({
      token: 'USDT',
      from: viaTronweb(log.topics[1] as string),
      to: viaTronweb(log.topics[2] as string),
      amount: 581_320_924n,
      txHash: '9ff75c018157f4504adc34058510516c603569238e5c3d156b1f0b096856b1a1',
      logIndex: 30,
      blockNumber: 39_507_235n,
      blockHash: '00000000025ad523bf3d34c17ff81e2cf46824d38ff0373d172fd293ca7e651f',
    });
    // The sender is also the receipt's `from`: the topic carries the same 20 bytes, left-padded.
    expect(transfer?.from).toBe(TronWeb.address.fromHex(`41${receipt.result.from.slice(2)}`));
  });

  test('an element of a mainnet eth_getLogs answer from TronGrid decodes the same way', () => {
    const log = mainnetLogs.result[0] as RawTronLog;
    const transfer = decodeTransferLog(log, 'USDT');
    expect(transfer).toMatchObject({
      from: viaTronweb(log.topics[1] as string),
      to: viaTronweb(log.topics[2] as string),
      amount: 0x7601a4c0n,
      logIndex: 0x3a,
      blockNumber: 0x223a0a7n,
      txHash: 'fd400301b6c29484dba466dab9979cd2e37e67cdb43e67c56e4f6f6a8da6b216',
    });
  });

  test('a log whose layout is not a TRC-20 Transfer is not taken for one', () => {
    const log = receipt.result.logs[0] as RawTronLog;
    expect(decodeTransferLog({ ...log, topics: [...log.topics, `0x${'0'.repeat(64)}`] }, 'USDT')).toBeUndefined();
    expect(
      decodeTransferLog({ ...log, topics: [log.topics[0] as string, `0x${'f'.repeat(64)}`, log.topics[2] as string] }, 'USDT'),
    ).toBeUndefined();
    expect(decodeTransferLog({ ...log, data: '0x' }, 'USDT')).toBeUndefined();
  });
});

describe('Tron RPC client against the recorded shapes', () => {
  let legacy: TronTestNode;

  beforeAll(async () => {
    legacy = await startTronTestNode({ legacyMillisecondTimestamps: true, initialBlocks: 2 });
  });

  afterAll(async () => {
    await legacy?.close();
  });

  test('block timestamps answered in milliseconds, as java-tron did in 2022, are read as seconds', async () => {
    expect(BigInt(legacyBlock.result.timestamp)).toBe(1_649_072_643_000n);
    const rpc = createTronRpc({
      urls: [legacy.url],
      timeoutMs: 2_000,
      retry: { attempts: 1, backoffMs: 1, maxBackoffMs: 1 },
      metrics: new IndexerMetrics().forChain('tron', 'testnet'),
    });
    const header = await rpc.block(legacy.head());
    const now = BigInt(Math.floor(Date.now() / 1000));
    expect(header?.timestamp).toBeGreaterThan(now - 60n);
    expect(header?.timestamp).toBeLessThanOrEqual(now);
    expect(header?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(header?.hash.slice(0, 16)).toBe(legacy.head().toString(16).padStart(16, '0'));
    expect(await rpc.chainId()).toBe(0xcd8690dc);
  });
});
