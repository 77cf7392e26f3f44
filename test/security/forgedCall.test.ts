// A forged call: a chain intent whose call sends the relayer's coin, or a deposit address's tokens, to the attacker. The
// webhook worker's and the session worker's roles cannot write chain intents, sweeps or transfers at all; and a stored
// call changed all the same (a hand edit, the signer's own credentials elsewhere) is compared with what its sweep row
// implies before every signature, the first and a replacement alike, and signs nothing
// (docs/settlement.md#a-stored-call-is-signed-only-as-its-row-implies). On a real Hardhat node and Postgres.
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { MockActivityEnvironment } from '@temporalio/testing';
import { encodeFunctionData, erc20Abi, type Address } from 'viem';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createSql, type Sql } from '../../db/client';
import { findChainIntent, type EvmCall } from '../../db/repositories/chainIntents';
import { unbalancedLedgerGroups } from '../../db/repositories/ledger';
import { depositSeed } from '../../domain/addresses/depositSeed';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import type { EvmChain } from '../../domain/sweeps/evmSweepPlan';
import { createEvmSweep } from '../../signer/sweeps/evmSweep';
import { topUpIntentId } from '../../signer/sweeps/evmHdSweep';
import type { EvmSweepOutcome } from '../../signer/sweeps/forwarderSweep';
import { COLLECTOR, startDepositContractsChain, STRANGER, SWEEPER } from '../contracts/depositContractsFixture';
import { createTestDatabase } from '../support/database';
import {
  connectSigner,
  deposit,
  forwarderSession,
  hdSession,
  planIds,
  sweeperDeps,
  type EvmSweepFixture,
} from '../signer/sweeps/evmSweepFixture';

let f: EvmSweepFixture;
let worker: Sql;
let webhooks: Sql;
let token: Address;
const CHAIN: EvmChain = 'base';
const seed = depositSeed({ mode: 'test', mnemonic: generateMnemonic(wordlist) });
let hdIndex = 1;

beforeAll(async () => {
  const [contracts, db] = await Promise.all([startDepositContractsChain(), createTestDatabase()]);
  f = { contracts, db, signer: connectSigner(db) };
  worker = createSql(db.urlAs('checkout_worker'), { max: 2 });
  webhooks = createSql(db.urlAs('checkout_webhooks'), { max: 2 });
  token = await contracts.chain.deployToken({ symbol: 'USDC', decimals: 6 });
});
afterAll(async () => {
  await Promise.all([f?.signer.end({ timeout: 5 }), worker?.end({ timeout: 5 }), webhooks?.end({ timeout: 5 })]);
  await Promise.all([f?.contracts.chain.stop(), f?.db.drop()]);
});
afterEach(async () => {
  await f.contracts.chain.setAutomine(true);
  expect(await unbalancedLedgerGroups(f.db.sql)).toEqual([]);
});

const client = () => f.contracts.chain.publicClient;
const relayer = () => f.contracts.chain.account(SWEEPER).address;
const attacker = () => f.contracts.chain.account(STRANGER).address;
const tokenBalance = (owner: Address) => client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
/** What the relayer and the attacker hold, and how many transactions the relayer has sent. */
const standing = async () => ({
  relayerWei: await client().getBalance({ address: relayer() }),
  relayerNonce: await client().getTransactionCount({ address: relayer() }),
  attackerWei: await client().getBalance({ address: attacker() }),
  attackerTokens: await tokenBalance(attacker()),
});

const sweeper = (overrides: Parameters<typeof sweeperDeps>[3] = {}) =>
  createEvmSweep(
    sweeperDeps(f, CHAIN, [{ symbol: 'USDC', address: token, decimals: 6 }], {
      depositSeed: seed,
      collector: f.contracts.chain.account(COLLECTOR).address,
      ...overrides,
    }),
  );

/** One pass in an activity context, as the signer worker runs it. */
const pass = (sweepId: string, overrides: Parameters<typeof sweeperDeps>[3] = {}): Promise<EvmSweepOutcome> =>
  new MockActivityEnvironment().run(async () => sweeper(overrides).advance(sweepId)) as Promise<EvmSweepOutcome>;

async function sweepToEnd(sweepId: string): Promise<EvmSweepOutcome> {
  for (let n = 0; n < 30; n++) {
    const outcome = await pass(sweepId);
    if (outcome.status === 'finalized' || outcome.status === 'failed') return outcome;
    await f.contracts.chain.mine(1);
  }
  throw new Error(`sweep ${sweepId} did not land`);
}

let runs = 0;
const runKey = () => `sweep_forged-${runs++}`;

/** A forwarder deposit, planned into a sweep whose intent is written and unsigned. */
async function plannedForwarderSweep(amount: bigint): Promise<string> {
  await deposit(f, CHAIN, await forwarderSession(f), token, amount);
  const [id] = await planIds(sweeper(), runKey());
  return id!;
}

const drain = (): EvmCall => ({ to: attacker(), data: '0x', value: (10n ** 18n).toString() });
const setCall = (id: string, call: EvmCall) => f.db.sql`update chain_intents set call = ${f.db.sql.json(call as never)} where id = ${id}`;
const refusedCall = (id: string) => ({
  type: WorkflowFailure.ChainIntentRefused,
  nonRetryable: true,
  message: expect.stringContaining(`chain intent ${id}`),
});

it("refuses the webhook worker's and the session worker's roles any chain intent, sweep or transfer, and nothing is signed", async () => {
  const id = await plannedForwarderSweep(1_000_000n);
  const before = await standing();
  for (const role of [webhooks, worker]) {
    // A plain insert, as an attacker would write it: the repository's ON CONFLICT would also need SELECT.
    const forged = role`insert into chain_intents (id, chain, mode, sender, call)
                        values (${`topup:${CHAIN}:forged`}, ${CHAIN}, 'test', ${relayer()}, ${role.json(drain() as never)})`;
    await expect(forged).rejects.toMatchObject({ code: '42501' });
    await expect(role`update chain_intents set call = ${role.json(drain() as never)} where id = ${id}`).rejects.toMatchObject({
      code: '42501',
    });
    await expect(role`update collector_sweeps set factory = ${attacker()} where id = ${id}`).rejects.toMatchObject({ code: '42501' });
    await expect(
      role`insert into collector_sweeps (id, mode, chain, token, token_address, factory, run_key, batch) values (${id}, 'test', ${CHAIN}, 'USDC', ${token}, ${attacker()}, 'forged', 0)`,
    ).rejects.toMatchObject({ code: '42501' });
    await expect(
      role`insert into transfers (id, mode, source_chain, amount, max_fee, speed, burn_intent_id) values ('transfer_forged', 'test', ${CHAIN}, 1, 0, 'fast', ${id})`,
    ).rejects.toMatchObject({ code: '42501' });
  }
  expect(await findChainIntent(f.db.sql, `topup:${CHAIN}:forged`)).toBeUndefined();
  expect(await standing()).toEqual(before);
  // The genuine sweep is signed as planned.
  expect(await sweepToEnd(id)).toMatchObject({ status: 'finalized', moved: '1000000' });
  expect((await standing()).attackerWei).toBe(before.attackerWei);
});

it("signs nothing for a forwarder sweep whose stored call was changed to pay the relayer's coin to the attacker", async () => {
  const id = await plannedForwarderSweep(2_000_000n);
  const planned = (await findChainIntent(f.db.sql, id))!.call!;
  await setCall(id, drain());
  const before = await standing();
  await expect(pass(id)).rejects.toMatchObject(refusedCall(id));
  await f.contracts.chain.mine(1);
  expect(await standing()).toEqual(before);
  expect((await findChainIntent(f.db.sql, id))!.status).toBe('prepared');
  // The operator puts the planned call back, and the sweep is signed as planned.
  await setCall(id, planned);
  expect(await sweepToEnd(id)).toMatchObject({ status: 'finalized', moved: '2000000' });
  expect((await standing()).attackerWei).toBe(before.attackerWei);
});

it('signs no replacement of a stuck sweep whose stored call was changed after its first signature', async () => {
  const id = await plannedForwarderSweep(3_000_000n);
  await f.contracts.chain.setAutomine(false);
  expect(await pass(id)).toMatchObject({ status: 'submitted' });
  const signed = (await findChainIntent(f.db.sql, id))!;
  await setCall(id, drain());
  const before = await standing();
  // Stuck at once: the writer would sign the stored call again, with the same nonce and higher fees.
  await expect(pass(id, { stuckAfterMs: 0 })).rejects.toMatchObject(refusedCall(id));
  const after = (await findChainIntent(f.db.sql, id))!;
  expect({ signature: after.signature, superseded: after.supersededSignatures }).toEqual({ signature: signed.signature, superseded: [] });
  await f.contracts.chain.mine(1);
  expect((await standing()).attackerWei).toBe(before.attackerWei);
  expect(await client().getTransactionReceipt({ hash: signed.signature as `0x${string}` })).toMatchObject({ status: 'success' });
  await f.contracts.chain.setAutomine(true);
  await setCall(id, signed.call!);
  expect(await sweepToEnd(id)).toMatchObject({ status: 'finalized', moved: '3000000' });
});

it('signs nothing for an HD sweep whose transfer or top-up was changed to pay the attacker', async () => {
  const hd = await hdSession(f, seed, hdIndex++);
  await deposit(f, CHAIN, hd, token, 4_000_000n);
  const [id] = await planIds(sweeper(), runKey());
  const planned = (await findChainIntent(f.db.sql, id!))!.call!;
  // The deposit address's own key would sign a transfer of its USDC to the attacker.
  await setCall(id!, {
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [attacker(), 4_000_000n] }),
    value: '0',
  });
  const before = await standing();
  await expect(pass(id!)).rejects.toMatchObject(refusedCall(id!));
  expect(await findChainIntent(f.db.sql, topUpIntentId({ id: id!, chain: CHAIN }))).toBeUndefined();
  await setCall(id!, planned);
  // The top-up is written ahead by the first pass; changed to pay the attacker, the relayer signs nothing.
  expect(await pass(id!)).toMatchObject({ status: 'pending' });
  const topUp = topUpIntentId({ id: id!, chain: CHAIN });
  const plannedTopUp = (await findChainIntent(f.db.sql, topUp))!.call!;
  await setCall(topUp, { ...plannedTopUp, to: attacker() });
  await expect(pass(id!)).rejects.toMatchObject(refusedCall(topUp));
  await f.contracts.chain.mine(1);
  expect(await standing()).toEqual(before);
  expect(await tokenBalance(hd.address)).toBe(4_000_000n);
  await setCall(topUp, plannedTopUp);
  expect(await sweepToEnd(id!)).toMatchObject({ status: 'finalized', moved: '4000000' });
  expect(await tokenBalance(attacker())).toBe(0n);
});
