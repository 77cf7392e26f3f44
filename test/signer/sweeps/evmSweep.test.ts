// EVM forwarder sweeps on a real Hardhat node and real Postgres (signer/sweeps/evmSweep.ts): deposits to
// forwarder addresses swept by one sweepMany into the collector, the ledger moved from deposits:<chain> to
// collector:<chain> with the relayer's gas, a threshold holding a small total back, a clone swept twice, tokens with
// no return value and a false one, and a relayer killed between steps that sends each sweep once.
import { createPublicClient, erc20Abi, http, type Address, type PublicClient } from 'viem';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEvmChainWriter } from '../../../signer/chainWrites/evmChainWriter';
import { createEvmSweep } from '../../../signer/sweeps/evmSweep';
import type { EvmSweepOutcome } from '../../../signer/sweeps/forwarderSweep';
import { findCollectorSweep } from '../../../db/repositories/collectorSweeps';
import { unbalancedLedgerGroups } from '../../../db/repositories/ledger';
import type { EvmChain } from '../../../domain/sweeps/evmSweepPlan';
import { ACCOUNT, nativeAsset, tokenAsset } from '../../../domain/ledger/ledger';
import * as depositFactory from '../../../contracts/artifacts/depositFactory';
import { registerEvmSweepMetrics } from '../../../observability/evmSweepMetrics';
import { COLLECTOR, hasCode, OWNER, startDepositContractsChain, SWEEPER } from '../../contracts/depositContractsFixture';
import { createTestDatabase } from '../../support/database';
import { startRpcProxy } from '../../support/evm/rpcProxy';
import {
  connectSigner,
  deposit,
  planIds,
  forwarderSession,
  ledgerBalance,
  sweeperDeps,
  type EvmSweepFixture,
  type SessionDepositAddress,
  sweepToEnd as sweepUntilLanded,
} from './evmSweepFixture';

let f: EvmSweepFixture;
/** Each chain label's USDC on the one local node, and the deposit addresses made for it. */
const tokens = new Map<EvmChain, Address>();
const addresses = new Map<EvmChain, SessionDepositAddress[]>();

beforeAll(async () => {
  const [contracts, db] = await Promise.all([startDepositContractsChain(), createTestDatabase()]);
  f = { contracts, db, signer: connectSigner(db) };
  const { chain } = contracts;
  tokens.set('base', await chain.deployToken({ symbol: 'USDC', decimals: 6 }));
  tokens.set('ethereum', await chain.deployToken({ symbol: 'USDC', decimals: 6 }));
  tokens.set('optimism', await chain.deployToken({ symbol: 'USDT', decimals: 6, kind: 'noReturn' }));
  tokens.set('arbitrum', await chain.deployToken({ symbol: 'USDT', decimals: 6, kind: 'falseReturn' }));
  tokens.set('polygon', await chain.deployToken({ symbol: 'USDC', decimals: 6 }));
});
afterAll(async () => {
  await f?.signer.end({ timeout: 5 });
  await Promise.all([f?.contracts.chain.stop(), f?.db.drop()]);
});

const balanceOf = (token: Address, owner: Address) =>
  f.contracts.chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
const collector = () => f.contracts.chain.account(COLLECTOR).address;
const relayerNonce = () => f.contracts.chain.publicClient.getTransactionCount({ address: f.contracts.chain.account(SWEEPER).address });

// The ledger balances and agrees with the chain after every test: the collector holds what collector:<chain> says,
// the deposit addresses what deposits:<chain> says, and the relayer paid what its gas postings say.
afterEach(async () => {
  expect(await unbalancedLedgerGroups(f.db.sql)).toEqual([]);
  for (const [chain, token] of tokens) {
    const asset = tokenAsset('USDC', chain);
    expect(await ledgerBalance(f.db.sql, ACCOUNT.collector(chain), asset)).toBe(await balanceOf(token, collector()));
    const held = await Promise.all((addresses.get(chain) ?? []).map((a) => balanceOf(token, a.address)));
    expect(await ledgerBalance(f.db.sql, ACCOUNT.depositsOn(chain), asset)).toBe(held.reduce((sum, b) => sum + b, 0n));
  }
});

function sweeper(chain: EvmChain, overrides: Parameters<typeof sweeperDeps>[3] = {}) {
  const token = tokens.get(chain)!;
  return createEvmSweep(sweeperDeps(f, chain, [{ symbol: 'USDC', address: token, decimals: 6 }], overrides));
}

async function depositTo(chain: EvmChain, amounts: bigint[]): Promise<SessionDepositAddress[]> {
  const made: SessionDepositAddress[] = [];
  for (const amount of amounts) {
    const session = await forwarderSession(f);
    await deposit(f, chain, session, tokens.get(chain)!, amount);
    made.push(session);
  }
  addresses.set(chain, [...(addresses.get(chain) ?? []), ...made]);
  return made;
}

const sweepToEnd = (sweep: ReturnType<typeof sweeper>, id: string) => sweepUntilLanded(f, sweep, id);

const writer = () => createEvmChainWriter(sweeperDeps(f, 'base', []));

async function setSweeper(allowed: boolean): Promise<void> {
  const { chain, factory } = f.contracts;
  const hash = await chain.walletClientFor(OWNER).writeContract({
    address: factory,
    abi: depositFactory.abi,
    functionName: 'setSweeper',
    args: [chain.account(SWEEPER).address, allowed],
  });
  await chain.publicClient.waitForTransactionReceipt({ hash });
}

let runs = 0;
const runKey = () => `sweep_evm_test-${runs++}`;

describe('EVM forwarder sweep', () => {
  it('sweeps two deposits to two forwarder addresses in one sweepMany: the collector gets both, the ledger moves them and posts the gas', async () => {
    const [a, b] = await depositTo('base', [1_500_000n, 2_250_000n]);
    const before = await balanceOf(tokens.get('base')!, collector());
    const nonce = await relayerNonce();
    const ids = await planIds(sweeper('base'), runKey());
    expect(ids).toHaveLength(1);
    const outcome = await sweepToEnd(sweeper('base'), ids[0]!);
    expect(outcome).toMatchObject({ status: 'finalized', moved: '3750000' });
    expect(await balanceOf(tokens.get('base')!, collector())).toBe(before + 3_750_000n);
    expect(await relayerNonce()).toBe(nonce + 1);
    const sweep = await findCollectorSweep(f.db.sql, ids[0]!);
    expect(sweep?.addresses.map((x) => [x.address, x.sweptBaseUnits])).toEqual(
      [
        [a!.address.toLowerCase(), 1_500_000n],
        [b!.address.toLowerCase(), 2_250_000n],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    const receipt = await f.contracts.chain.publicClient.getTransactionReceipt({ hash: sweep!.txHash as `0x${string}` });
    expect(sweep?.gasWei).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
    expect(await ledgerBalance(f.db.sql, ACCOUNT.gasExpenseOn('base'), nativeAsset('base'))).toBeGreaterThanOrEqual(sweep!.gasWei!);
    // Landed is landed: another pass and another plan move nothing and post nothing twice.
    expect(await sweeper('base').advance(ids[0]!)).toEqual(outcome);
    expect(await planIds(sweeper('base'), runKey())).toEqual([]);
  });

  it('a relayer whose node lacks the sweep in its history sends it once, and the pass says why it waits', async () => {
    await depositTo('base', [1_000_000n]);
    const before = await balanceOf(tokens.get('base')!, collector());
    const nonce = await relayerNonce();
    const historyless = await startRpcProxy(f.contracts.chain.rpcUrl);
    try {
      historyless.setPolicy(() => ({
        respond: (request) => (request.method === 'eth_getTransactionReceipt' ? { result: null } : { forward: true }),
      }));
      const client = createPublicClient({ transport: http(historyless.url) }) as PublicClient;
      const [id] = await planIds(sweeper('base'), runKey());
      let outcome: EvmSweepOutcome | undefined;
      for (let pass = 0; pass < 4; pass++) {
        outcome = await sweeper('base', { client }).advance(id!);
        await f.contracts.chain.mine(1);
      }
      expect(await relayerNonce()).toBe(nonce + 1);
      expect(outcome).toMatchObject({ status: 'submitted', deferred: expect.stringMatching(/lacks that history/) });
      expect(await balanceOf(tokens.get('base')!, collector())).toBe(before + 1_000_000n);
      // A node with the history finds it: recorded once, the ledger moved once.
      expect(await sweepToEnd(sweeper('base'), id!)).toMatchObject({ status: 'finalized', moved: '1000000' });
    } finally {
      await historyless.close();
    }
  });

  it("calls no factory but the signer's own: a row naming another factory, or not its clone, is planned by no sweep", async () => {
    const [session] = await depositTo('base', [1_000_000n]);
    // The same row seen by a signer configured with another factory: the row's factory is foreign to it.
    const elsewhere = { evm: { factory: f.contracts.forwarder, implementation: f.contracts.factory }, tron: undefined };
    const foreign = await sweeper('base', { forwarders: elsewhere }).plan('USDC', runKey());
    expect(foreign).toMatchObject({ sweepIds: [], forwarderSweeps: 0 });
    expect(foreign.foreign).toEqual([
      {
        address: session!.address.toLowerCase(),
        sessionId: session!.sessionId,
        reason: expect.stringMatching(/its evm row names factory 0x[0-9a-fA-F]{40}, not the signer's test evm deposit factory/),
      },
    ]);
    // The signer's own factory, but another implementation: the row's address is not the clone the factory would sweep.
    const otherClone = {
      evm: { factory: f.contracts.factory, implementation: f.contracts.forwarder.replace(/.$/, '0') as Address },
      tron: undefined,
    };
    expect((await sweeper('base', { forwarders: otherClone }).plan('USDC', runKey())).foreign).toHaveLength(1);
    expect(
      await f.db.sql`select count(*)::int as n from collector_sweep_addresses where address = ${session!.address.toLowerCase()}`,
    ).toEqual([{ n: 0 }]);
    // Its own signer sweeps it.
    const [id] = await planIds(sweeper('base'), runKey());
    expect(await sweepToEnd(sweeper('base'), id!)).toMatchObject({ status: 'finalized', moved: '1000000' });
  });

  it('deploys a clone once and sweeps it again when a later deposit arrives', async () => {
    const [session] = await depositTo('base', [700_000n]);
    const [first] = await planIds(sweeper('base'), runKey());
    await sweepToEnd(sweeper('base'), first!);
    expect(await hasCode(f.contracts.chain, session!.address)).toBe(true);
    await deposit(f, 'base', session!, tokens.get('base')!, 300_000n);
    const [second] = await planIds(sweeper('base'), runKey());
    expect(await sweepToEnd(sweeper('base'), second!)).toMatchObject({ status: 'finalized', moved: '300000' });
    expect(await balanceOf(tokens.get('base')!, session!.address)).toBe(0n);
  });

  it("holds a total below the chain's threshold back, and sweeps once the deposits reach it", async () => {
    const ethereum = (planned: string) => planIds(sweeper('ethereum', { minimumWholeTokens: 500 }), planned);
    await depositTo('ethereum', [200_000_000n, 250_000_000n]);
    expect(await ethereum(runKey())).toEqual([]);
    await depositTo('ethereum', [60_000_000n]);
    const ids = await ethereum(runKey());
    expect(ids).toHaveLength(1);
    expect(await sweepToEnd(sweeper('ethereum'), ids[0]!)).toMatchObject({ status: 'finalized', moved: '510000000' });
  });

  it('cuts the plan into batches of the configured size', async () => {
    await depositTo('base', [1n, 2n, 3n]);
    const ids = await planIds(sweeper('base', { batchSize: 2 }), runKey());
    expect(ids).toHaveLength(2);
    const outcomes = [await sweepToEnd(sweeper('base'), ids[0]!), await sweepToEnd(sweeper('base'), ids[1]!)];
    expect(outcomes.map((o) => (o.status === 'finalized' ? BigInt(o.moved) : 0n)).reduce((s, m) => s + m, 0n)).toBe(6n);
  });

  it.each([
    ['optimism', 'a token that returns nothing'],
    ['arbitrum', 'a token that returns false'],
  ] as const)("sweeps %s's %s", async (chain, _kind) => {
    await depositTo(chain, [5_000_000n, 1_000_000n]);
    const [id] = await planIds(sweeper(chain), runKey());
    expect(await sweepToEnd(sweeper(chain), id!)).toMatchObject({ status: 'finalized', moved: '6000000' });
  });

  it('a reverted sweep posts its gas only, and the next run takes its addresses', async () => {
    await depositTo('base', [800_000n]);
    const [id] = await planIds(sweeper('base'), runKey());
    await writer().sign(id!);
    // Signed while the relayer could sweep; mined once it no longer can.
    await setSweeper(false);
    await writer().broadcast(id!);
    await setSweeper(true);
    const failed = await sweepToEnd(sweeper('base'), id!);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(BigInt((failed as { gasWei: string }).gasWei)).toBeGreaterThan(0n);
    const [again] = await planIds(sweeper('base'), runKey());
    expect(await sweepToEnd(sweeper('base'), again!)).toMatchObject({ status: 'finalized', moved: '800000' });
  });

  it("shows the collector's inventory and the oldest unswept deposit's age as gauges", async () => {
    const registry = new Registry();
    registerEvmSweepMetrics(registry, f.db.sql);
    const gauge = async (pattern: string) => Number(new RegExp(`^${pattern} (\\S+)$`, 'm').exec(await registry.metrics())?.[1]);
    const [session] = await depositTo('polygon', [9_000_000n]);
    await f.db.sql`update deposits set created_at = now() - interval '1 hour' where session_id = ${session!.sessionId}`;
    expect(await gauge('checkout_evm_unswept_deposit_age_seconds\\{mode="test",chain="polygon"\\}')).toBeGreaterThanOrEqual(3600);
    const [id] = await planIds(sweeper('polygon'), runKey());
    await sweepToEnd(sweeper('polygon'), id!);
    expect(await gauge('checkout_evm_unswept_deposit_age_seconds\\{mode="test",chain="polygon"\\}')).toBe(0);
    expect(await gauge('checkout_collector_inventory_base_units\\{mode="test",chain="polygon",asset="usdc:polygon"\\}')).toBe(9_000_000);
  });

  describe('a relayer killed between steps loses nothing and sends nothing twice', () => {
    it.each([
      ['after the row is written', async (_id: string) => undefined],
      ['after signing', async (id: string) => void (await writer().sign(id))],
      ['after broadcasting', async (id: string) => void (await writer().broadcast((await writer().sign(id)).intent.id))],
    ])('%s', async (_step, killedAfter) => {
      await depositTo('base', [400_000n, 600_000n]);
      const nonce = await relayerNonce();
      const key = runKey();
      const [id] = await planIds(sweeper('base'), key);
      await killedAfter(id!);
      // A restarted signer: a retried plan finds its batch again, a fresh sweeper resumes from the row.
      expect(await planIds(sweeper('base'), key)).toEqual([id]);
      expect(await sweepToEnd(sweeper('base'), id!)).toMatchObject({ status: 'finalized', moved: '1000000' });
      expect(await relayerNonce()).toBe(nonce + 1);
    });
  });
});

describe('what a forwarder sweep takes', () => {
  it('plans only addresses whose every deposit the treasury paid out: one with a late deposit or a refund-due excess beside the paid one waits, one not paid out is left', async () => {
    // A chain of its own, outside the ledger-against-chain check: the late deposit is at an address, unposted.
    const token = await f.contracts.chain.deployToken({ symbol: 'USDC', decimals: 6 });
    const [withLate, unpaid, overpaid, owed] = [
      await forwarderSession(f),
      await forwarderSession(f),
      await forwarderSession(f),
      await forwarderSession(f),
    ];
    await deposit(f, 'bsc', withLate, token, 1_000_000n);
    await deposit(f, 'bsc', withLate, token, 400_000n, 'late');
    await deposit(f, 'bsc', unpaid, token, 500_000n, 'unpaid');
    await deposit(f, 'bsc', overpaid, token, 1_500_000n, { paidOutWithRefundDue: 500_000n });
    await deposit(f, 'bsc', owed, token, 2_000_000n);
    const sweep = createEvmSweep(sweeperDeps(f, 'bsc', [{ symbol: 'USDC', address: token, decimals: 6 }]));
    const ids = await planIds(sweep, runKey());
    expect(ids).toHaveLength(1);
    expect((await findCollectorSweep(f.db.sql, ids[0]!))?.addresses.map((a) => a.address)).toEqual([owed.address.toLowerCase()]);
    expect(await sweepToEnd(sweep, ids[0]!)).toMatchObject({ status: 'finalized', moved: '2000000' });
    expect([
      await balanceOf(token, withLate.address),
      await balanceOf(token, unpaid.address),
      await balanceOf(token, overpaid.address),
    ]).toEqual([1_400_000n, 500_000n, 1_500_000n]);
    expect(await planIds(sweep, runKey())).toEqual([]);
  });
});
