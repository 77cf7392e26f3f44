// Select-payment's database side in one local activity. The payment, its quote, the watch and the
// session's move to awaiting_payment are written in one transaction (all or nothing); a Solana pair the signer has not
// derived ahead answers with the session's index, kept for it; two attempts racing on a new session leave it one set
// of addresses, and the payment on the stored one. Runs as the worker's role.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositXpubsFromSeeds } from '../../domain/addresses/hdDerivation';
import { depositSeeds } from '../../domain/addresses/depositSeed';
import { createChoosePayment, type PaymentChoice } from '../../activities/payments/choosePayment';
import { chainRegistryPaymentNetwork } from '../../activities/payments/paymentNetwork';
import { createSignerActivities } from '../../signer/activities';
import { loadChainsConfig } from '../../config/chains';
import { createSql, type Sql } from '../../db/client';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { NO_DEPOSIT_FORWARDERS } from '../../domain/addresses/depositForwarder';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import type { SessionRecord, SessionStatusChange } from '../../domain/wire/session';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';

const MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const ONE = { numerator: 1n, denominator: 1n, text: '1' };

let db: TestDatabase;
let worker: Sql;
let merchantId: string;
let choose: (choice: PaymentChoice) => ReturnType<ReturnType<typeof createChoosePayment>>;

const seeds = depositSeeds({ test: MNEMONIC, live: undefined });

beforeAll(async () => {
  db = await createTestDatabase();
  worker = createSql(db.urlAs('checkout_worker'), { max: 4 });
  merchantId = (await createTestMerchant(db.sql)).merchant.id;
  choose = createChoosePayment({
    sql: worker,
    depositXpubs: depositXpubsFromSeeds(seeds),
    depositForwarders: NO_DEPOSIT_FORWARDERS,
    network: chainRegistryPaymentNetwork(createChainRegistry(loadChainsConfig({}))),
    liveTokenPrices: { USDC: ONE, USDT: ONE },
  });
});
afterAll(async () => {
  await worker?.end({ timeout: 5 });
  await db?.drop();
});

async function newSession(): Promise<SessionRecord> {
  const record = sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 });
  await insertSessionRecord(db.sql, record, 'pending');
  return record;
}

const selected = (record: SessionRecord, reason: string, at = new Date().toISOString()): SessionStatusChange => ({
  sessionId: record.sessionId,
  status: 'awaiting_payment',
  at,
  version: 1,
  reason,
});

const written = async (sessionId: string) => ({
  session: (await db.sql`select status, status_version, status_reason from sessions where id = ${sessionId}`)[0],
  payment: (await db.sql`select chain, deposit_address, quote_id from payments where session_id = ${sessionId}`)[0],
  quotes: (await db.sql`select id from quotes where session_id = ${sessionId}`).length,
  watches: (await db.sql`select chain, address from deposit_watches where session_id = ${sessionId} order by chain`).map(
    (w) => `${w.chain} ${w.address}`,
  ),
  addresses:
    await db.sql`select derivation_index::int as index, evm_address, solana_address from deposit_addresses where session_id = ${sessionId}`,
});

const NOTHING_WRITTEN = {
  session: { status: 'pending', status_version: 0, status_reason: null },
  payment: undefined,
  quotes: 0,
  watches: [],
  addresses: [],
};

describe('choosePayment', () => {
  it('writes the payment, its quote, the watches and the move to awaiting_payment together; a later choice leaves the status', async () => {
    const record = await newSession();
    const first = await choose({
      record,
      selection: { token: 'USDC', chain: 'base' },
      statusChange: selected(record, 'USDC on base selected'),
    });
    if (!('prepared' in first)) throw new Error('expected instructions');
    expect(await written(record.sessionId)).toMatchObject({
      session: { status: 'awaiting_payment', status_version: 1, status_reason: 'USDC on base selected' },
      payment: { chain: 'base', deposit_address: first.prepared.deposit_address, quote_id: first.prepared.quote_id },
      quotes: 1,
      // The same EVM address receives on every EVM chain: watched on each that has a token contract, so a payment sent
      // on the wrong chain is recorded (for a refund) too.
      watches: ['arbitrum', 'base', 'ethereum', 'optimism', 'polygon'].map((chain) => `${chain} ${first.prepared.deposit_address}`),
    });
    const second = await choose({ record, selection: { token: 'USDC', chain: 'polygon' } });
    expect(second).toMatchObject({ prepared: { chain: 'polygon', deposit_address: first.prepared.deposit_address } });
    expect(await written(record.sessionId)).toMatchObject({ session: { status: 'awaiting_payment', status_version: 1 }, quotes: 2 });
  });

  it('writes nothing of a choice when Postgres refuses one of its statements', async () => {
    const record = await newSession();
    const outOfRange = { ...selected(record, 'USDC on base selected'), version: 2 ** 31 };
    await expect(choose({ record, selection: { token: 'USDC', chain: 'base' }, statusChange: outOfRange })).rejects.toThrow(
      /out of range for type integer/,
    );
    expect(await written(record.sessionId)).toEqual(NOTHING_WRITTEN);
  });

  it('refuses an instant it cannot send before sending anything, rather than leave its transaction waiting', async () => {
    const record = await newSession();
    // Each statement prepared on the pool's connections first: postgres.js's failure to send a value then errors the
    // statement in flight, not its own, and the transaction waits for an answer that never comes.
    for (let i = 0; i < 4; i++) {
      const warm = await newSession();
      await choose({ record: warm, selection: { token: 'USDC', chain: 'base' }, statusChange: selected(warm, 'USDC on base selected') });
    }
    const unparseable = selected(record, 'USDC on base selected', 'not an instant');
    await expect(choose({ record, selection: { token: 'USDC', chain: 'base' }, statusChange: unparseable })).rejects.toThrow(
      'the status change\'s time is not a valid instant: "not an instant"',
    );
    expect(await written(record.sessionId)).toEqual(NOTHING_WRITTEN);
  });

  it("answers a Solana pair the signer has not derived with the session's index, kept for it, and prepares it with the signer's answer", async () => {
    const record = await newSession();
    const asked = await choose({
      record,
      selection: { token: 'USDC', chain: 'solana' },
      statusChange: selected(record, 'USDC on solana selected'),
    });
    if (!('solanaAddressNeeded' in asked)) throw new Error('expected the index');
    const { index } = asked.solanaAddressNeeded;
    expect(await written(record.sessionId)).toMatchObject({
      session: { status: 'pending' },
      payment: undefined,
      quotes: 0,
      addresses: [{ index, solana_address: null }],
    });
    const solanaAddressFromSigner = await createSignerActivities({ depositSeeds: seeds, addressPool: db.sql }).deriveSolanaDepositAddress({
      mode: 'test',
      index,
    });
    const again = await choose({
      record,
      selection: { token: 'USDC', chain: 'solana' },
      statusChange: selected(record, 'USDC on solana selected'),
      solanaAddressFromSigner,
    });
    expect(again).toMatchObject({ prepared: { chain: 'solana', deposit_address: solanaAddressFromSigner } });
    expect(await written(record.sessionId)).toMatchObject({
      session: { status: 'awaiting_payment' },
      addresses: [{ index, solana_address: solanaAddressFromSigner }],
      watches: [`solana ${solanaAddressFromSigner}`],
    });
  });

  it('gives a new session one set of addresses when attempts race, and the payment the stored one', async () => {
    const record = await newSession();
    const choice = {
      record,
      selection: { token: 'USDC', chain: 'base' },
      statusChange: selected(record, 'USDC on base selected'),
    } as const;
    const attempts = await Promise.allSettled([choose(choice), choose(choice), choose(choice)]);
    // An attempt that lost the race fails (a retryable error) and its retry takes the stored addresses.
    const retried = await Promise.all(attempts.map((attempt) => (attempt.status === 'fulfilled' ? attempt.value : choose(choice))));
    const { addresses, payment } = await written(record.sessionId);
    expect(addresses).toHaveLength(1);
    expect(payment!.deposit_address).toBe(addresses[0]!.evm_address);
    expect(retried.map((r) => ('prepared' in r ? r.prepared.deposit_address : null))).toEqual([
      payment!.deposit_address,
      payment!.deposit_address,
      payment!.deposit_address,
    ]);
  });
});
