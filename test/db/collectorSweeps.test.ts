// collector_sweeps holds both kinds of sweep on the EVM chains and on Tron, and its checks keep each kind's fields
// apart: a forwarder sweep names its factory, an HD sweep its collector and never a factory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEvmChainIntent, insertTronChainIntent } from '../../db/repositories/chainIntents';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;
let run = 0;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const TOKEN = { evm: '0x036cbd53842c5426634e7929541ec2318f3dcf7e', tron: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' };

/** A sweep row and the chain intent it references, as a plan writes them. */
async function insertSweep(row: {
  id: string;
  chain: string;
  kind: 'forwarder' | 'hd';
  factory?: string;
  collector?: string;
}): Promise<void> {
  const tron = row.chain === 'tron';
  if (tron)
    await insertTronChainIntent(db.sql, {
      id: row.id,
      mode: 'test',
      sender: 'TRelayer',
      call: { contract: 'TFactory', functionSelector: 'sweepMany(bytes32[],address)', parameter: '', feeLimit: '0', callValue: '0' },
    });
  else
    await insertEvmChainIntent(db.sql, {
      id: row.id,
      chain: row.chain,
      mode: 'test',
      sender: '0x0000000000000000000000000000000000000001',
      call: { to: TOKEN.evm, data: '0x', value: '0' },
    });
  await db.sql`insert into collector_sweeps (id, mode, chain, token, token_address, kind, factory, collector, run_key, batch)
    values (${row.id}, 'test', ${row.chain}, 'USDT', ${tron ? TOKEN.tron : TOKEN.evm}, ${row.kind}, ${row.factory ?? null}, ${row.collector ?? null}, ${`run-${run++}`}, 0)`;
}

describe('collector_sweeps', () => {
  it('takes HD sweeps on an EVM chain and on Tron and forwarder sweeps on Tron, and refuse an HD sweep with a factory', async () => {
    await insertSweep({ id: 'sweep-hd:base:1', chain: 'base', kind: 'hd', collector: '0x0000000000000000000000000000000000000c01' });
    await insertSweep({ id: 'sweep:tron:1', chain: 'tron', kind: 'forwarder', factory: 'TFactory' });
    await insertSweep({ id: 'sweep-hd:tron:1', chain: 'tron', kind: 'hd', collector: 'TCollector' });
    await expect(
      insertSweep({ id: 'sweep-hd:tron:2', chain: 'tron', kind: 'hd', factory: 'TFactory', collector: 'TCollector' }),
    ).rejects.toThrow(/collector_sweeps_kind_fields/);
    expect(await db.sql`select id, chain, kind from collector_sweeps order by id`).toEqual([
      { id: 'sweep-hd:base:1', chain: 'base', kind: 'hd' },
      { id: 'sweep-hd:tron:1', chain: 'tron', kind: 'hd' },
      { id: 'sweep:tron:1', chain: 'tron', kind: 'forwarder' },
    ]);
  });
});
