// Attacks on the Solana deposit address a customer is shown, which only the signer can derive (the seed is its alone,
// the path hardened-only): a holder of the worker's database credentials planting an address of theirs in the pool or
// in the session's row, and a process polling the signer's task queue (whoever reaches Temporal can) answering
// deriveSolanaDepositAddress with its own address. The worker shows only what the signer recorded in the pool, which
// the signer's role alone writes (docs/settlement.md#deposit-addresses-only-the-services-own).
import { randomBytes } from 'node:crypto';
import { mnemonicToSeedSync } from '@scure/bip39';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createSql, type Sql } from '../../db/client';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { deriveSolanaAddress } from '../../domain/addresses/hdDerivation';
import { depositSeeds, DEVELOPMENT_MNEMONIC } from '../../domain/addresses/depositSeed';
import { signerTaskQueue } from '../../domain/taskQueues';
import { createSignerWorker } from '../../signer/worker';
import { selectPaymentUpdate } from '../../workflows/messages';
import { createWorkflowHarness, type WorkflowHarness } from '../support/workflowHarness';

let h: WorkflowHarness;
let worker: Sql;
let signer: Sql;
beforeAll(async () => {
  h = await createWorkflowHarness();
  worker = createSql(h.db.urlAs('checkout_worker'), { max: 2 });
  signer = createSql(h.db.urlAs('checkout_signer'), { max: 2 });
});
beforeEach(() => h.freshEnvironment());
afterAll(async () => {
  await Promise.all([worker?.end({ timeout: 5 }), signer?.end({ timeout: 5 })]);
  await h?.teardown();
});

/** An address of the attacker's: a valid Solana address from a seed the service never held. */
const attackerAddress = () => deriveSolanaAddress(randomBytes(64), 0);
const genuine = (index: number) => deriveSolanaAddress(mnemonicToSeedSync(DEVELOPMENT_MNEMONIC), index);

/** Everything that would show or watch `address` for the session: its stored address, its payment, its watches. */
async function traces(sessionId: string, address: string) {
  const [row] = await h.db.sql<[{ stored: number; payments: number; watches: number }]>`
    select (select count(*)::int from deposit_addresses where session_id = ${sessionId} and solana_address = ${address}) as stored,
           (select count(*)::int from payments where session_id = ${sessionId} and deposit_address = ${address}) as payments,
           (select count(*)::int from deposit_watches where address = ${address}) as watches`;
  return row;
}
const NONE = { stored: 0, payments: 0, watches: 0 };

it("refuses the worker's role an address of its own in the pool or in a session's row", async () => {
  const record = await h.record({ supportedTokens: { USDC: ['base', 'solana'] } });
  // The session's index reserved and its EVM and Tron addresses stored, as its first choice of an EVM pair does.
  await h.withWorker(async () => {
    const handle = await h.start(record);
    await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
  });
  const [{ index }] = await h.db.sql<[{ index: number }]>`
    select derivation_index::int as index from deposit_addresses where session_id = ${record.sessionId}`;
  const attacker = attackerAddress();
  await expect(
    worker`insert into solana_deposit_address_pool (mode, derivation_index, address) values ('test', ${index}, ${attacker})`,
  ).rejects.toMatchObject({
    code: '42501',
  });
  // The worker may write a session's Solana address once, but only the one the signer recorded for its index.
  await expect(
    worker`update deposit_addresses set solana_address = ${attacker} where session_id = ${record.sessionId}`,
  ).rejects.toMatchObject({
    code: '23514',
    message: expect.stringContaining('is not the one the signer recorded'),
  });
  const other = await h.record();
  await insertSessionRecord(h.db.sql, other, 'pending');
  await expect(
    worker`insert into deposit_addresses (session_id, mode, derivation_index, evm_address, tron_address, solana_address)
           values (${other.sessionId}, 'test', ${index + 1_000}, '0x0000000000000000000000000000000000000001', 'T1', ${attacker})`,
  ).rejects.toMatchObject({ code: '23514' });
  // The signer's own record is accepted.
  await signer`insert into solana_deposit_address_pool (mode, derivation_index, address) values ('test', ${index}, ${genuine(index)})`;
  await worker`update deposit_addresses set solana_address = ${genuine(index)} where session_id = ${record.sessionId}`;
  expect(await traces(record.sessionId, attacker)).toEqual(NONE);
  expect(await h.db.sql`select count(*)::int as n from solana_deposit_address_pool where address = ${attacker}`).toEqual([{ n: 0 }]);
});

it("shows no customer the address a rogue poller of the signer's task queue answers, and the signer's once it answers", async () => {
  const record = await h.record({ supportedTokens: { USDC: ['solana'] } });
  const attacker = attackerAddress();
  const asked: number[] = [];
  await h.withWorker(
    async () => {
      const handle = await h.start(record);
      const { taskQueue } = await handle.describe();
      const rogue = await Worker.create({
        connection: h.env.nativeConnection,
        namespace: h.env.namespace ?? 'default',
        taskQueue: signerTaskQueue(taskQueue, record.mode),
        activities: {
          deriveSolanaDepositAddress: async ({ index }: { index: number }) => {
            asked.push(index);
            return attacker;
          },
        },
      });
      const refused = await rogue.runUntil(
        handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'solana' }] }).catch((e: unknown) => e),
      );
      expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((refused as WorkflowUpdateFailedError).cause).toMatchObject({
        type: 'SolanaAddressUnrecorded',
        message: expect.stringContaining(
          `the answer "${attacker}" to the Solana address of index ${asked[0]} is not what the signer recorded`,
        ),
      });
      expect(await traces(record.sessionId, attacker)).toEqual(NONE);

      // The real signer back on its queue: the customer's next choice gets the address derived from the service's seed.
      const real = await createSignerWorker({
        connection: h.env.nativeConnection,
        namespace: h.env.namespace ?? 'default',
        sessionTaskQueue: taskQueue,
        mode: record.mode,
        signer: { depositSeeds: depositSeeds({ test: undefined, live: undefined }), addressPool: signer },
      });
      const shown = await real.runUntil(handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'solana' }] }));
      expect(shown.deposit_address).toBe(genuine(asked[0]!));
    },
    {},
    {},
    false,
  );
  expect(asked).toHaveLength(1);
  expect(await traces(record.sessionId, attacker)).toEqual(NONE);
});
