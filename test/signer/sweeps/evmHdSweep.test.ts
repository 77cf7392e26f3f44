// HD EOA deposit sweeps on a real Hardhat node and real Postgres (signer/sweeps/evmHdSweep.ts, planned and
// advanced through the same sweeper as forwarder batches): USDC at an HD address derived from a test mnemonic is
// topped up by the relayer and sent by the address's own key to the collector; an address holding enough native coin
// gets no top-up; fees that rise before the transfer is signed make a second top-up; a signer killed after the
// top-up or the transfer is signed sends nothing twice and loses nothing; a token returning no value works; the plan
// says why it leaves HD addresses alone without a collector; the unswept deposit age counts HD deposits.
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { erc20Abi, toHex, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEvmChainWriter } from '../../../signer/chainWrites/evmChainWriter';
import { deriveEvmPrivateKey } from '../../../domain/addresses/hdDerivation';
import { depositSeed } from '../../../domain/addresses/depositSeed';
import { topUpIntentId } from '../../../signer/sweeps/evmHdSweep';
import { createEvmSweep } from '../../../signer/sweeps/evmSweep';
import type { EvmSweepOutcome } from '../../../signer/sweeps/forwarderSweep';
import { findChainIntent } from '../../../db/repositories/chainIntents';
import { findCollectorSweep } from '../../../db/repositories/collectorSweeps';
import { unbalancedLedgerGroups } from '../../../db/repositories/ledger';
import type { EvmChain } from '../../../domain/sweeps/evmSweepPlan';
import { ACCOUNT, nativeAsset, tokenAsset } from '../../../domain/ledger/ledger';
import { registerEvmSweepMetrics } from '../../../observability/evmSweepMetrics';
import { COLLECTOR, PAYER, startDepositContractsChain, SWEEPER } from '../../contracts/depositContractsFixture';
import { createTestDatabase } from '../../support/database';
import {
  connectSigner,
  deposit,
  planIds,
  forwarderSession,
  hdSession,
  ledgerBalance,
  sweeperDeps,
  type EvmSweepFixture,
  type SessionDepositAddress,
} from './evmSweepFixture';

let f: EvmSweepFixture;
/** A test mnemonic of this run's own: its addresses hold nothing the node gave them. */
const seed = depositSeed({ mode: 'test', mnemonic: generateMnemonic(wordlist) });
const tokens = new Map<EvmChain, Address>();
const addresses = new Map<EvmChain, SessionDepositAddress[]>();
/** Native coin a test gave HD addresses from outside the service: no posting records its arrival. */
const unrecordedNative = new Map<EvmChain, bigint>();
let indices = 1;

beforeAll(async () => {
  const [contracts, db] = await Promise.all([startDepositContractsChain(), createTestDatabase()]);
  f = { contracts, db, signer: connectSigner(db) };
  tokens.set('base', await contracts.chain.deployToken({ symbol: 'USDC', decimals: 6 }));
  tokens.set('optimism', await contracts.chain.deployToken({ symbol: 'USDT', decimals: 6, kind: 'noReturn' }));
  tokens.set('arbitrum', await contracts.chain.deployToken({ symbol: 'USDC', decimals: 6 }));
});
afterAll(async () => {
  await f?.signer.end({ timeout: 5 });
  await Promise.all([f?.contracts.chain.stop(), f?.db.drop()]);
});

const client = () => f.contracts.chain.publicClient;
const balanceOf = (token: Address, owner: Address) =>
  client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
const collector = () => f.contracts.chain.account(COLLECTOR).address;
const relayerNonce = () => client().getTransactionCount({ address: f.contracts.chain.account(SWEEPER).address });
const nonceOf = (address: Address) => client().getTransactionCount({ address });

// After every test the ledger balances and agrees with the chain: the collector holds what collector:<chain> says,
// the HD addresses the tokens deposits:<chain> says and the native coin deposit_gas:<chain> says (less what a test
// gave them from outside).
afterEach(async () => {
  expect(await unbalancedLedgerGroups(f.db.sql)).toEqual([]);
  for (const [chain, token] of tokens) {
    const asset = tokenAsset('USDC', chain);
    const held = addresses.get(chain) ?? [];
    expect(await ledgerBalance(f.db.sql, ACCOUNT.collector(chain), asset)).toBe(await balanceOf(token, collector()));
    expect(await ledgerBalance(f.db.sql, ACCOUNT.depositsOn(chain), asset)).toBe(
      (await Promise.all(held.map((a) => balanceOf(token, a.address)))).reduce((s, b) => s + b, 0n),
    );
    const native = (await Promise.all(held.map((a) => client().getBalance({ address: a.address })))).reduce((s, b) => s + b, 0n);
    expect(await ledgerBalance(f.db.sql, ACCOUNT.depositGasOn(chain), nativeAsset(chain))).toBe(
      native - (unrecordedNative.get(chain) ?? 0n),
    );
  }
});

function sweeper(chain: EvmChain, overrides: Parameters<typeof sweeperDeps>[3] = {}) {
  return createEvmSweep(
    sweeperDeps(f, chain, [{ symbol: 'USDC', address: tokens.get(chain)!, decimals: 6 }], {
      depositSeed: seed,
      collector: collector(),
      ...overrides,
    }),
  );
}

async function hdDepositTo(chain: EvmChain, amounts: bigint[]): Promise<SessionDepositAddress[]> {
  const made: SessionDepositAddress[] = [];
  for (const amount of amounts) {
    const session = await hdSession(f, seed, indices++);
    await deposit(f, chain, session, tokens.get(chain)!, amount);
    made.push(session);
  }
  addresses.set(chain, [...(addresses.get(chain) ?? []), ...made]);
  return made;
}

/** Passes, each by a fresh sweeper, until the sweep has landed, a block mined after each one that waits. */
async function sweepToEnd(chain: EvmChain, id: string): Promise<EvmSweepOutcome> {
  for (let pass = 0; pass < 30; pass++) {
    const outcome = await sweeper(chain).advance(id);
    if (outcome.status === 'finalized' || outcome.status === 'failed') return outcome;
    await f.contracts.chain.mine(1);
  }
  throw new Error(`sweep ${id} did not land in 30 passes`);
}

/** Passes (each by a fresh sweeper, as after a restart) until `done` holds. */
async function passUntil(chain: EvmChain, id: string, done: () => Promise<boolean>): Promise<void> {
  for (let pass = 0; pass < 30 && !(await done()); pass++) {
    await sweeper(chain).advance(id);
    await f.contracts.chain.mine(1);
  }
  expect(await done()).toBe(true);
}

let runs = 0;
const runKey = () => `sweep_evm_hd-${runs++}`;

describe('HD deposit sweeps', () => {
  it("tops an HD address up with exactly its transfer's cost and sweeps its USDC to the collector with the address's own key", async () => {
    const [hd] = await hdDepositTo('base', [2_500_000n]);
    const relayerBefore = await relayerNonce();
    const ids = await planIds(sweeper('base'), runKey());
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^sweep-hd:base:/);
    expect(await sweepToEnd('base', ids[0]!)).toMatchObject({ status: 'finalized', moved: '2500000' });
    expect(await balanceOf(tokens.get('base')!, collector())).toBe(2_500_000n);
    expect(await balanceOf(tokens.get('base')!, hd!.address)).toBe(0n);
    // One top-up from the relayer, one transfer from the address: each its own nonce sequence.
    expect(await relayerNonce()).toBe(relayerBefore + 1);
    expect(await nonceOf(hd!.address)).toBe(1);
    const sweep = (await findCollectorSweep(f.db.sql, ids[0]!))!;
    const topUp = (await findChainIntent(f.db.sql, topUpIntentId(sweep)))!;
    expect(sweep).toMatchObject({ kind: 'hd', factory: null, collector: collector(), status: 'finalized' });
    expect(sweep.topupWei).toBe(BigInt(topUp.call!.value));
    // What was sent and not spent stays with the address, as deposit_gas:base says (checked after each test).
    const transfer = await client().getTransactionReceipt({ hash: sweep.txHash as `0x${string}` });
    expect(sweep.gasWei).toBe(transfer.gasUsed * transfer.effectiveGasPrice);
    expect(await client().getBalance({ address: hd!.address })).toBe(sweep.topupWei! - sweep.gasWei!);
    expect(await ledgerBalance(f.db.sql, ACCOUNT.gasExpenseOn('base'), nativeAsset('base'))).toBe(sweep.gasWei! + sweep.topupGasWei!);
    expect(sweep.addresses.map((a) => [a.address, a.salt, a.sweptBaseUnits])).toEqual([[hd!.address.toLowerCase(), null, 2_500_000n]]);
    // Landed is landed; the next plan finds the address owes nothing.
    expect(await sweeper('base').advance(ids[0]!)).toMatchObject({ status: 'finalized', moved: '2500000' });
    expect(await planIds(sweeper('base'), runKey())).toEqual([]);
  });

  it('sends no top-up to an HD address that already holds enough native coin', async () => {
    const [hd] = await hdDepositTo('base', [1_000_000n]);
    const given = 10n ** 16n;
    const sent = await f.contracts.chain.walletClientFor(PAYER).sendTransaction({ to: hd!.address, value: given });
    await client().waitForTransactionReceipt({ hash: sent });
    unrecordedNative.set('base', (unrecordedNative.get('base') ?? 0n) + given);
    const relayerBefore = await relayerNonce();
    const [id] = await planIds(sweeper('base'), runKey());
    expect(await sweepToEnd('base', id!)).toMatchObject({ status: 'finalized', moved: '1000000' });
    expect(await relayerNonce()).toBe(relayerBefore);
    const sweep = (await findCollectorSweep(f.db.sql, id!))!;
    expect(await findChainIntent(f.db.sql, topUpIntentId(sweep))).toBeUndefined();
    expect(sweep.topupWei).toBeNull();
  });

  it('sweeps a later deposit to the same HD address again, with the leftover gas topped up only by what is missing', async () => {
    const [hd] = await hdDepositTo('arbitrum', [400_000n]);
    const [first] = await planIds(sweeper('arbitrum'), runKey());
    await sweepToEnd('arbitrum', first!);
    const leftover = await client().getBalance({ address: hd!.address });
    expect(leftover).toBeGreaterThan(0n);
    await deposit(f, 'arbitrum', hd!, tokens.get('arbitrum')!, 600_000n);
    const [second] = await planIds(sweeper('arbitrum'), runKey());
    expect(await sweepToEnd('arbitrum', second!)).toMatchObject({ status: 'finalized', moved: '600000' });
    const sweep = (await findCollectorSweep(f.db.sql, second!))!;
    const transfer = await client().getTransactionReceipt({ hash: sweep.txHash as `0x${string}` });
    const tx = await client().getTransaction({ hash: sweep.txHash as `0x${string}` });
    // What the address kept counts toward the top-up, which still covers the transfer's gas limit at its max fee.
    expect(sweep.topupWei).toBeGreaterThan(0n);
    expect(leftover + sweep.topupWei!).toBeGreaterThanOrEqual(tx.gas * tx.maxFeePerGas!);
    expect(transfer.status).toBe('success');
    expect(await nonceOf(hd!.address)).toBe(2);
  });

  it("sweeps a token that returns no value (Ethereum USDT's kind)", async () => {
    await hdDepositTo('optimism', [3_000_000n, 2_000_000n]);
    const ids = await planIds(sweeper('optimism'), runKey());
    expect(ids).toHaveLength(2);
    for (const id of ids) await sweepToEnd('optimism', id);
    expect(await balanceOf(tokens.get('optimism')!, collector())).toBe(5_000_000n);
  });

  it('plans forwarder batches and HD sweeps of one scope in the same run, both landing', async () => {
    const forwarder = await forwarderSession(f);
    await deposit(f, 'base', forwarder, tokens.get('base')!, 700_000n);
    addresses.set('base', [...(addresses.get('base') ?? []), forwarder]);
    await hdDepositTo('base', [300_000n]);
    const before = await balanceOf(tokens.get('base')!, collector());
    const ids = await planIds(sweeper('base'), runKey());
    expect(ids.map((id) => id.split(':')[0])).toEqual(['sweep', 'sweep-hd']);
    const outcomes = [];
    for (const id of ids) outcomes.push(await sweepToEnd('base', id));
    expect(outcomes.map((o) => o.status === 'finalized' && o.moved)).toEqual(['700000', '300000']);
    expect(await balanceOf(tokens.get('base')!, collector())).toBe(before + 1_000_000n);
  });

  it('leaves HD addresses alone without a collector, and says how many wait', async () => {
    await hdDepositTo('arbitrum', [800_000n]);
    const planned = await sweeper('arbitrum', { collector: undefined }).plan('USDC', runKey());
    expect(planned).toEqual({ sweepIds: [], forwarderSweeps: 0, hdSweeps: 0, hdWaiting: 1, skipped: [], foreign: [] });
    const [id] = await planIds(sweeper('arbitrum'), runKey());
    expect(await sweepToEnd('arbitrum', id!)).toMatchObject({ status: 'finalized', moved: '800000' });
  });

  it("counts an HD deposit no sweep has taken in the oldest unswept deposit's age", async () => {
    const registry = new Registry();
    registerEvmSweepMetrics(registry, f.db.sql);
    const age = async () =>
      Number(/^checkout_evm_unswept_deposit_age_seconds\{mode="test",chain="optimism"\} (\S+)$/m.exec(await registry.metrics())?.[1]);
    expect(await age()).toBe(0);
    const [hd] = await hdDepositTo('optimism', [1_500_000n]);
    await f.db.sql`update deposits set created_at = now() - interval '1 hour' where session_id = ${hd!.sessionId}`;
    expect(await age()).toBeGreaterThanOrEqual(3600);
    const [id] = await planIds(sweeper('optimism'), runKey());
    await sweepToEnd('optimism', id!);
    expect(await age()).toBe(0);
  });

  it('tops up again by the difference when fees rise past what the first top-up paid for before the transfer is signed', async () => {
    const [hd] = await hdDepositTo('base', [1_100_000n]);
    const relayerBefore = await relayerNonce();
    const [id] = await planIds(sweeper('base'), runKey());
    await passUntil('base', id!, async () => (await findCollectorSweep(f.db.sql, id!))!.topupRounds === 1);
    const { baseFeePerGas } = await client().getBlock();
    await f.contracts.chain.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: baseFeePerGas! * 4n });
    await f.contracts.chain.mine(1);
    expect(await sweepToEnd('base', id!)).toMatchObject({ status: 'finalized', moved: '1100000' });
    const sweep = (await findCollectorSweep(f.db.sql, id!))!;
    expect(sweep.topupRounds).toBe(2);
    const rounds = await Promise.all(
      [1, 2].map(async (round) => BigInt((await findChainIntent(f.db.sql, topUpIntentId(sweep, round)))!.call!.value)),
    );
    expect(sweep.topupWei).toBe(rounds[0]! + rounds[1]!);
    expect(await relayerNonce()).toBe(relayerBefore + 2);
    expect(await nonceOf(hd!.address)).toBe(1);
  });

  describe('a signer killed after a step is signed sends nothing twice and loses nothing', () => {
    const hdWriter = async (sweepId: string) => {
      const {
        addresses: [swept],
      } = (await findCollectorSweep(f.db.sql, sweepId))!;
      const [row] = await f.db.sql<
        { derivation_index: string }[]
      >`select derivation_index from deposit_addresses where session_id = ${swept!.sessionId}`;
      return createEvmChainWriter(
        sweeperDeps(f, 'base', [], { account: privateKeyToAccount(toHex(deriveEvmPrivateKey(seed, Number(row!.derivation_index)))) }),
      );
    };
    const relayerWriter = () => createEvmChainWriter(sweeperDeps(f, 'base', []));

    it('after the top-up is signed', async () => {
      const [hd] = await hdDepositTo('base', [1_200_000n]);
      const relayerBefore = await relayerNonce();
      const [id] = await planIds(sweeper('base'), runKey());
      const sweep = (await findCollectorSweep(f.db.sql, id!))!;
      // The first pass writes the top-up ahead; the signer signs it and dies before sending it.
      expect(await sweeper('base').advance(id!)).toEqual({ status: 'pending' });
      expect((await relayerWriter().sign(topUpIntentId(sweep))).intent.status).toBe('signed');
      expect(await sweepToEnd('base', id!)).toMatchObject({ status: 'finalized', moved: '1200000' });
      expect(await relayerNonce()).toBe(relayerBefore + 1);
      expect(await nonceOf(hd!.address)).toBe(1);
    });

    it('after the transfer is signed', async () => {
      const [hd] = await hdDepositTo('base', [900_000n]);
      const [id] = await planIds(sweeper('base'), runKey());
      await passUntil('base', id!, async () => (await findCollectorSweep(f.db.sql, id!))!.topupRounds === 1);
      expect((await findChainIntent(f.db.sql, id!))!.status).toBe('prepared');
      expect((await (await hdWriter(id!)).sign(id!)).intent.status).toBe('signed');
      const relayerBefore = await relayerNonce();
      expect(await sweepToEnd('base', id!)).toMatchObject({ status: 'finalized', moved: '900000' });
      expect(await relayerNonce()).toBe(relayerBefore);
      expect(await nonceOf(hd!.address)).toBe(1);
      expect(await balanceOf(tokens.get('base')!, hd!.address)).toBe(0n);
    });
  });
});

describe('what an HD sweep takes', () => {
  it('moves only what the treasury paid out: a late deposit and a refund-due excess at the address stay, an address not paid out is left', async () => {
    // A chain of its own, outside the ledger-against-chain check: the late deposit is at an address, unposted.
    const token = await f.contracts.chain.deployToken({ symbol: 'USDC', decimals: 6 });
    const [owed, unpaid] = [await hdSession(f, seed, indices++), await hdSession(f, seed, indices++)];
    await deposit(f, 'polygon', owed, token, 700_000n, { paidOutWithRefundDue: 100_000n });
    await deposit(f, 'polygon', owed, token, 200_000n, 'late');
    await deposit(f, 'polygon', unpaid, token, 300_000n, 'unpaid');
    const polygon = () =>
      createEvmSweep(
        sweeperDeps(f, 'polygon', [{ symbol: 'USDC', address: token, decimals: 6 }], { depositSeed: seed, collector: collector() }),
      );
    const ids = await planIds(polygon(), runKey());
    expect(ids).toHaveLength(1);
    const planned = await findCollectorSweep(f.db.sql, ids[0]!);
    expect(planned?.addresses.map((a) => [a.address, a.plannedBaseUnits])).toEqual([[owed.address.toLowerCase(), 600_000n]]);
    let outcome: EvmSweepOutcome | undefined;
    for (let pass = 0; pass < 30 && outcome?.status !== 'finalized'; pass++) {
      outcome = await polygon().advance(ids[0]!);
      await f.contracts.chain.mine(1);
    }
    expect(outcome).toMatchObject({ status: 'finalized', moved: '600000' });
    expect([await balanceOf(token, owed.address), await balanceOf(token, unpaid.address)]).toEqual([300_000n, 300_000n]);
    expect(await planIds(polygon(), runKey())).toEqual([]);
  });
});
