// Forged calls on Tron: a stored Tron intent changed to pay the attacker (the relayer's TRX, or a deposit address's
// USDT) signs nothing; the signer compares it with what its sweep row implies before each pass
// (docs/settlement.md#a-stored-call-is-signed-only-as-its-row-implies). Against the loopback stand-in of java-tron's
// HTTP API (test/support/tron/tronWalletNode.ts) and a real Postgres.
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { MockActivityEnvironment } from '@temporalio/testing';
import { encodeAbiParameters } from 'viem';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Sql } from '../../db/client';
import { findChainIntent } from '../../db/repositories/chainIntents';
import { unbalancedLedgerGroups } from '../../db/repositories/ledger';
import { depositSeed } from '../../domain/addresses/depositSeed';
import { tronAddressToEvmHex } from '../../domain/addresses/tron';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { topUpIntentId } from '../../signer/sweeps/evmHdSweep';
import type { EvmSweepOutcome } from '../../signer/sweeps/forwarderSweep';
import { createTronSweep } from '../../signer/sweeps/tronSweep';
import type { TestDatabase } from '../support/database';
import type { TronWalletNode } from '../support/tron/tronWalletNode';
import { planIds } from '../signer/sweeps/evmSweepFixture';
import {
  standInSweepDeps,
  startTronSweepStandIn,
  stopTronSweepStandIn,
  tronAddress,
  tronForwarderDeposit,
  tronHdDeposit,
  type TronSweepFixture,
  type TronSweepStandIn,
} from '../signer/sweeps/tronSweepFixture';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const CONTRACTS = { factory: tronAddress(), implementation: tronAddress() };
const COLLECTOR = tronAddress();
const ATTACKER = tronAddress();
const FEE_LIMIT_SUN = 5_000_000n;
const seed = depositSeed({ mode: 'test', mnemonic: generateMnemonic(wordlist) });

let standIn: TronSweepStandIn | undefined;
let db: TestDatabase;
let node: TronWalletNode;
let fixture: TronSweepFixture;
let signerSql: Sql;
beforeAll(async () => {
  standIn = await startTronSweepStandIn({ ...CONTRACTS, collector: COLLECTOR });
  ({ db, node, signer: signerSql } = standIn);
  fixture = { sql: db.sql, node, contracts: CONTRACTS, token: { symbol: 'USDT', address: USDT } };
});
afterAll(() => stopTronSweepStandIn(standIn));
afterEach(async () => {
  expect(await unbalancedLedgerGroups(db.sql)).toEqual([]);
});

const sweeper = () =>
  createTronSweep(
    standInSweepDeps(
      {
        sql: signerSql,
        relayer: standIn!.relayer,
        feeLimitSun: 100n * FEE_LIMIT_SUN,
        hdFeeLimitSun: FEE_LIMIT_SUN,
        node,
        usdt: USDT,
        contracts: CONTRACTS,
      },
      { depositSeed: seed, collector: COLLECTOR },
    ),
  );
const pass = (id: string): Promise<EvmSweepOutcome> =>
  new MockActivityEnvironment().run(async () => sweeper().advance(id)) as Promise<EvmSweepOutcome>;

async function sweepToEnd(id: string): Promise<EvmSweepOutcome> {
  for (let n = 0; n < 30; n++) {
    const outcome = await pass(id);
    if (outcome.status === 'finalized' || outcome.status === 'failed') return outcome;
    node.mine(1);
  }
  throw new Error(`sweep ${id} did not land`);
}

let runs = 0;
const runKey = () => `sweep_tron_forged-${runs++}`;
const setCall = (id: string, call: unknown) => db.sql`update chain_intents set call = ${db.sql.json(call as never)} where id = ${id}`;
const refusedCall = (id: string) => ({
  type: WorkflowFailure.ChainIntentRefused,
  nonRetryable: true,
  message: expect.stringContaining(`chain intent ${id}`),
});
/** What the attacker holds, and whether the intent was ever signed. */
const untouched = async (id: string) => ({
  attackerUsdt: node.balanceOf(USDT, ATTACKER),
  attackerTrx: node.trxOf(ATTACKER) ?? 0n,
  signature: (await findChainIntent(db.sql, id))!.signature,
});

it("signs nothing for a Tron forwarder sweep changed into a payment of the relayer's TRX to the attacker", async () => {
  await tronForwarderDeposit(fixture, 1_000_000n);
  const [id] = await planIds(sweeper(), runKey(), 'USDT');
  const planned = (await findChainIntent(db.sql, id!))!.tronCall;
  await setCall(id!, { kind: 'transfer', to: ATTACKER, amount: '1000000000' });
  await expect(pass(id!)).rejects.toMatchObject(refusedCall(id!));
  node.mine(1);
  expect(await untouched(id!)).toEqual({ attackerUsdt: 0n, attackerTrx: 0n, signature: null });
  await setCall(id!, planned);
  expect(await sweepToEnd(id!)).toMatchObject({ status: 'finalized', moved: '1000000' });
});

it('signs nothing for a Tron HD sweep whose transfer or top-up was changed to pay the attacker', async () => {
  const hd = await tronHdDeposit(fixture, seed, 1, 2_500_000n);
  const [id] = await planIds(sweeper(), runKey(), 'USDT');
  const planned = (await findChainIntent(db.sql, id!))!.tronCall as { parameter: string };
  const toAttacker = encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [tronAddressToEvmHex(ATTACKER), 2_500_000n]).slice(2);
  await setCall(id!, { ...planned, parameter: toAttacker });
  await expect(pass(id!)).rejects.toMatchObject(refusedCall(id!));
  expect(await findChainIntent(db.sql, topUpIntentId({ id: id!, chain: 'tron' }))).toBeUndefined();
  await setCall(id!, planned);
  // The first pass writes the top-up ahead; changed to pay the attacker, the relayer signs nothing.
  expect(await pass(id!)).toMatchObject({ status: 'pending' });
  const topUp = topUpIntentId({ id: id!, chain: 'tron' });
  const plannedTopUp = (await findChainIntent(db.sql, topUp))!.tronCall as { to: string };
  await setCall(topUp, { ...plannedTopUp, to: ATTACKER });
  await expect(pass(id!)).rejects.toMatchObject(refusedCall(topUp));
  node.mine(1);
  expect(await untouched(topUp)).toEqual({ attackerUsdt: 0n, attackerTrx: 0n, signature: null });
  expect(node.balanceOf(USDT, hd)).toBe(2_500_000n);
  await setCall(topUp, plannedTopUp);
  expect(await sweepToEnd(id!)).toMatchObject({ status: 'finalized', moved: '2500000' });
  expect(node.balanceOf(USDT, ATTACKER)).toBe(0n);
});
