// Failure isolation in Tron forwarder sweeps (signer/sweeps/forwarderSweep.ts, Tron's simulation in tronSweep.ts)
// against the loopback stand-in of java-tron's HTTP API (test/support/tron/tronWalletNode.ts): one forwarder that
// USDT blacklists would revert every sweepMany holding it, in a block as in the constant call that simulates it. The
// plan simulates each batch through /wallet/triggerconstantcontract, leaves the failing address out so the others are
// swept, counts its failures, and stops planning it from SWEEP_MAX_ADDRESS_FAILURES on until an operator deletes its row.
import { toFunctionSelector } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTronSweep } from '../../../signer/sweeps/tronSweep';
import { unbalancedLedgerGroups } from '../../../db/repositories/ledger';
import { SweepCallRevertsError } from '../../../domain/sweeps/sweepFailures';
import {
  standInSweepDeps,
  startTronSweepStandIn,
  stopTronSweepStandIn,
  sweepUntilLanded,
  tronAddress,
  tronForwarderDeposit,
  type TronSweepStandIn,
} from './tronSweepFixture';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const CONTRACTS = { factory: tronAddress(), implementation: tronAddress() };
const COLLECTOR = tronAddress();
/** The forwarder's TransferFailed(token) when the token refuses: the node answers it as the revert data. */
const TRANSFER_FAILED = toFunctionSelector('TransferFailed(address)');

let s: TronSweepStandIn;
beforeAll(async () => {
  s = await startTronSweepStandIn({ ...CONTRACTS, collector: COLLECTOR });
});
afterAll(() => stopTronSweepStandIn(s));
beforeEach(() => s.node.setPolicy(() => 'answer'));

const sweeper = () =>
  createTronSweep(
    standInSweepDeps({ sql: s.signer, relayer: s.relayer, feeLimitSun: 1_000_000_000n, node: s.node, usdt: USDT, contracts: CONTRACTS }),
  );
let runs = 0;
const runKey = () => `sweep_tron_isolation-${runs++}`;
const balanceOf = (owner: string) => s.node.balanceOf(USDT, owner);
const sweepToEnd = (id: string) => sweepUntilLanded(sweeper, s.node, id);

async function funded(amounts: bigint[]): Promise<string[]> {
  const made: string[] = [];
  for (const amount of amounts)
    made.push(
      await tronForwarderDeposit({ sql: s.db.sql, node: s.node, contracts: CONTRACTS, token: { symbol: 'USDT', address: USDT } }, amount),
    );
  return made;
}

const failuresOf = async (address: string) =>
  (
    await s.db.sql<{ failures: number; last_error: string }[]>`
      select failures, last_error from sweep_address_failures where mode = 'test' and chain = 'tron' and token = 'USDT' and address = ${address}`
  )[0];

describe('Tron forwarder sweep with an address whose transfer reverts', () => {
  it('sweeps the others, counts the failing one, and plans it no more from the third failure until an operator clears it', async () => {
    const [first, blocked, last] = await funded([1_000_000n, 2_000_000n, 3_000_000n]);
    s.node.blacklist(USDT, blocked!, true);
    const collectorBefore = balanceOf(COLLECTOR);

    const planned = await sweeper().plan('USDT', runKey());
    expect(planned.skipped).toEqual([expect.objectContaining({ address: blocked, failures: 1, excluded: false })]);
    expect(planned.skipped[0]!.reason).toContain(TRANSFER_FAILED);
    expect(planned.sweepIds).toHaveLength(1);
    expect(await sweepToEnd(planned.sweepIds[0]!)).toMatchObject({ status: 'finalized', moved: '4000000' });
    expect(balanceOf(first!)).toBe(0n);
    expect(balanceOf(last!)).toBe(0n);
    expect(balanceOf(blocked!)).toBe(2_000_000n);
    expect(balanceOf(COLLECTOR)).toBe(collectorBefore + 4_000_000n);

    for (const failures of [2, 3]) {
      const again = await sweeper().plan('USDT', runKey());
      expect(again.sweepIds).toEqual([]);
      expect(again.skipped).toEqual([expect.objectContaining({ address: blocked, failures, excluded: failures === 3 })]);
    }
    // Excluded: not even simulated, its count stays where it stopped.
    const constantCalls = s.node.calls.get('/wallet/triggerconstantcontract') ?? 0;
    expect(await sweeper().plan('USDT', runKey())).toMatchObject({ sweepIds: [], skipped: [] });
    expect(s.node.calls.get('/wallet/triggerconstantcontract') ?? 0).toBe(constantCalls);
    expect(await failuresOf(blocked!)).toMatchObject({ failures: 3 });

    // The operator, once the issuer lifts the blacklisting, clears the address (checkout-admin sweep clear-failure deletes the row).
    s.node.blacklist(USDT, blocked!, false);
    await s.db.sql`delete from sweep_address_failures where chain = 'tron' and address = ${blocked!}`;
    const cleared = await sweeper().plan('USDT', runKey());
    expect(cleared.skipped).toEqual([]);
    expect(await sweepToEnd(cleared.sweepIds[0]!)).toMatchObject({ status: 'finalized', moved: '2000000' });
    expect(await unbalancedLedgerGroups(s.db.sql)).toEqual([]);
  });

  it('forgets the failures of an address whose sweep simulates again before the limit', async () => {
    const [blocked] = await funded([5_000_000n]);
    s.node.blacklist(USDT, blocked!, true);
    expect((await sweeper().plan('USDT', runKey())).skipped).toHaveLength(1);
    expect(await failuresOf(blocked!)).toMatchObject({ failures: 1, last_error: expect.stringContaining(TRANSFER_FAILED) as unknown });
    s.node.blacklist(USDT, blocked!, false);
    const planned = await sweeper().plan('USDT', runKey());
    expect(planned).toMatchObject({ skipped: [] });
    expect(await failuresOf(blocked!)).toBeUndefined();
    expect(await sweepToEnd(planned.sweepIds[0]!)).toMatchObject({ status: 'finalized', moved: '5000000' });
  });

  it('counts no address when the node does not answer the simulation: the plan fails for Temporal to retry', async () => {
    const [owed] = await funded([6_000_000n]);
    s.node.setPolicy((path, _index, body) =>
      path === '/wallet/triggerconstantcontract' && body.function_selector === 'sweepMany(bytes32[],address)' ? { status: 503 } : 'answer',
    );
    await expect(sweeper().plan('USDT', runKey())).rejects.toMatchObject({ kind: 'unavailable' });
    expect(await failuresOf(owed!)).toBeUndefined();
    s.node.setPolicy(() => 'answer');
    const planned = await sweeper().plan('USDT', runKey());
    expect(planned.skipped).toEqual([]);
    expect(await sweepToEnd(planned.sweepIds[0]!)).toMatchObject({ status: 'finalized', moved: '6000000' });
  });

  it('counts no address when the relayer cannot sweep at all: the plan fails for Temporal to retry', async () => {
    const [owed] = await funded([7_000_000n]);
    s.node.setSweeper(CONTRACTS.factory, s.relayer.address, false);
    await expect(sweeper().plan('USDT', runKey())).rejects.toThrow(SweepCallRevertsError);
    expect(await failuresOf(owed!)).toBeUndefined();
    s.node.setSweeper(CONTRACTS.factory, s.relayer.address, true);
    const planned = await sweeper().plan('USDT', runKey());
    expect(await sweepToEnd(planned.sweepIds[0]!)).toMatchObject({ status: 'finalized', moved: '7000000' });
  });
});
