// Deposit accounts on the local chain (real SPL Token and ATA programs in litesvm behind the
// JSON-RPC layer) are swept into the treasury and closed, the rent returned to the treasury, once: a second sweep
// moves nothing, and a sweep killed after signing sends the same bytes. The ledger balances after every test and
// what deposits:solana holds for the treasury is back to zero once everything settled has been swept; what it holds
// for refunds stays at the deposit addresses.
import type { Address, Signature } from '@solana/kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSolanaChainWriter } from '../../../signer/chainWrites/solanaChainWriter';
import type { TreasuryPayoutDeps } from '../../../signer/payouts/treasuryPayout';
import { createSolanaSweep, sweepSigner, type SolanaSweepDeps, type SweepOutcome } from '../../../signer/sweeps/solanaSweep';
import { findChainIntent } from '../../../db/repositories/chainIntents';
import { findSweep, sweepDue, type Sweep } from '../../../db/repositories/solanaSweeps';
import { FINALITY_DEPTH } from '../../../toolchain/localSolana/localSolanaChain';
import { associatedTokenAccount } from '../../../toolchain/localSolana/splToken';
import { createPayoutFixture, type PayoutFixture } from '../../activities/settlement/payoutFixture';
import {
  depositAgain as depositAgainOn,
  lateDeposit,
  payoutFixtureTarget,
  settledDeposit as settledDepositOn,
  TEST_SEED,
  type TestDeposit,
} from './sweepFixture';

let f: PayoutFixture;
let deps: SolanaSweepDeps;
let runs = 0;

beforeAll(async () => {
  f = await createPayoutFixture();
  deps = await sweepDeps(await f.treasury({ usdc: 1_000_000n }));
});
afterAll(async () => {
  await f?.stop();
});
afterEach(async () => {
  f.rpcServer.dropping = false;
  expect(await f.ledgerImbalances()).toEqual([]);
});

const settledDeposit = (amounts: bigint[], options?: Parameters<typeof settledDepositOn>[2]) =>
  settledDepositOn(payoutFixtureTarget(f), amounts, options);
const depositAgain = (deposit: TestDeposit, amount: bigint) => depositAgainOn(payoutFixtureTarget(f), deposit, amount);

async function sweepDeps(treasury: TreasuryPayoutDeps): Promise<SolanaSweepDeps> {
  return { ...treasury, depositSeed: TEST_SEED, mode: 'test' };
}

const lamportsOf = async (address: Address) => (await f.rpc.getBalance(address).send()).value;
const accountExists = async (address: Address) => (await f.rpc.getAccountInfo(address, { encoding: 'base64' }).send()).value !== null;
const ledgerSum = async (account: string) =>
  BigInt(
    (
      await f.db.sql<{ total: string }[]>`
        select coalesce(sum(amount), 0)::text as total from ledger_entries where account = ${account}`
    )[0]?.total ?? '0',
  );
/** What deposits:solana holds for the treasury: less what is owed back to customers (refund_due:solana, a credit). */
const depositsHeld = async () => (await ledgerSum('deposits:solana')) + (await ledgerSum('refund_due:solana'));
/** The refund due posted for the deposits to `owner`'s USDC account, as a positive amount. */
const refundDueAt = async (owner: Address) => {
  const [row] = await f.db.sql<{ total: string }[]>`
    select coalesce(-sum(e.amount), 0)::text as total from ledger_entries e join deposits d
      on e.group_id = 'deposit:solana:' || d.tx_hash || ':' || d.log_index
    where d.chain = 'solana' and d.to_address = ${owner} and e.account = 'refund_due:solana'`;
  return BigInt(row?.total ?? '0');
};

/** Plans a run and advances each of its sweeps, a block after each submitted pass, until none is submitted. */
async function sweepAll(sweeper = createSolanaSweep(deps), runKey = `run-${++runs}`): Promise<Map<string, SweepOutcome>> {
  const outcomes = new Map<string, SweepOutcome>();
  for (const id of await sweeper.plan(runKey)) {
    for (let pass = 0; pass < 10; pass++) {
      const outcome = await sweeper.advance(id);
      outcomes.set(id, outcome);
      if (outcome.status !== 'submitted') break;
      f.chain.produce();
    }
  }
  return outcomes;
}

describe('a Solana deposit sweep', () => {
  it("moves every deposit account's USDC to the treasury and closes it, the rent back to the treasury", async () => {
    const one = await settledDeposit([2_000_000n, 500_000n]);
    const two = await settledDeposit([7_250_000n]);
    const treasuryUsdc = (await f.usdcBalance(deps.treasury.address)) as bigint;
    const treasuryLamports = await lamportsOf(deps.treasury.address);
    const rent = await f.rpc.getMinimumBalanceForRentExemption(165n).send();
    expect(await depositsHeld()).toBe(9_750_000n);

    const outcomes = await sweepAll();
    expect([...outcomes.values()]).toEqual([expect.objectContaining({ status: 'confirmed', usdcSwept: '9750000' })]);
    const [id] = [...outcomes.keys()] as [string];
    const sweep = (await findSweep(f.db.sql, id)) as Sweep;

    // Exactly: the USDC of both accounts, and the two accounts' rent less the fee of three signatures.
    const landed = await f.rpc
      .getTransaction(sweep.signature as Signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 })
      .send();
    const fee = landed?.meta?.fee as bigint;
    expect(fee).toBe(15_000n);
    expect(await f.usdcBalance(deps.treasury.address)).toBe(treasuryUsdc + 9_750_000n);
    expect(await lamportsOf(deps.treasury.address)).toBe(treasuryLamports + 2n * rent - fee);
    for (const { owner } of [one, two]) {
      expect(await accountExists(await associatedTokenAccount(owner, f.usdc.address))).toBe(false);
      expect(await lamportsOf(owner)).toBe(0n);
    }
    expect(sweep).toMatchObject({ status: 'confirmed', usdcSwept: 9_750_000n, feeLamports: fee, rentLamports: 2n * rent });
    expect(new Map(sweep.accounts.map((a) => [a.owner, a.sweptBaseUnits]))).toEqual(
      new Map([
        [one.owner, 2_500_000n],
        [two.owner, 7_250_000n],
      ]),
    );

    const groups = await f.db.sql<{ group_id: string; account: string; asset: string; amount: string }[]>`
      select group_id, account, asset, amount::text from ledger_entries where reference = ${id} order by group_id, account`;
    expect(groups).toEqual([
      { group_id: `${id}:fee`, account: 'gas_expense:solana', asset: 'sol:solana', amount: fee.toString() },
      { group_id: `${id}:fee`, account: 'treasury:solana', asset: 'sol:solana', amount: (-fee).toString() },
      { group_id: `${id}:rent`, account: 'rent_recovered:solana', asset: 'sol:solana', amount: (-2n * rent).toString() },
      { group_id: `${id}:rent`, account: 'treasury:solana', asset: 'sol:solana', amount: (2n * rent).toString() },
      { group_id: `${id}:usdc`, account: 'deposits:solana', asset: 'usdc:solana', amount: '-9750000' },
      { group_id: `${id}:usdc`, account: 'treasury:solana', asset: 'usdc:solana', amount: '9750000' },
    ]);
    expect(await depositsHeld()).toBe(0n);
  });

  it('is idempotent: a second run moves nothing, and a retried plan returns the batches it planned', async () => {
    const deposit = await settledDeposit([3_000_000n]);
    const sweeper = createSolanaSweep(deps);
    const first = await sweepAll(sweeper, 'run-twice');
    expect([...first.values()].map((o) => o.status)).toEqual(['confirmed']);
    // The indexer touching the deposit's row later (its confirmation count) does not make the address due again.
    await f.db.sql`update deposits set updated_at = now() + interval '1 hour' where to_address = ${deposit.owner}`;
    expect((await sweepDue(f.signer, 'test', 10_000)).map((d) => d.owner)).not.toContain(deposit.owner);
    const treasuryUsdc = await f.usdcBalance(deps.treasury.address);
    const treasuryLamports = await lamportsOf(deps.treasury.address);

    expect(await sweeper.plan('run-twice')).toEqual([...first.keys()]);
    expect(await sweepAll(sweeper)).toEqual(new Map());
    expect(await f.usdcBalance(deps.treasury.address)).toBe(treasuryUsdc);
    expect(await lamportsOf(deps.treasury.address)).toBe(treasuryLamports);
    expect(await depositsHeld()).toBe(0n);
  });

  it('a later deposit to a swept address, beyond the price, is left in the re-created account for its refund', async () => {
    const deposit = await settledDeposit([1_000_000n]);
    await sweepAll();
    const tokenAccount = await associatedTokenAccount(deposit.owner, f.usdc.address);
    expect(await accountExists(tokenAccount)).toBe(false);
    await depositAgain(deposit, 4_000_000n);
    expect(await refundDueAt(deposit.owner)).toBe(4_000_000n);

    expect((await sweepDue(f.signer, 'test', 10_000)).map((d) => d.owner)).not.toContain(deposit.owner);
    expect(await sweepAll()).toEqual(new Map());
    expect(await f.usdcBalance(deposit.owner)).toBe(4_000_000n);
    expect(await accountExists(tokenAccount)).toBe(true);
    expect(await depositsHeld()).toBe(0n);
  });

  it('an overpaid payment: the sweep takes the price and leaves the excess in the open account for its refund', async () => {
    const deposit = await settledDeposit([3_000_000n, 1_500_000n], { price: 4_000_000n });
    expect(await refundDueAt(deposit.owner)).toBe(500_000n);
    const rentBefore = await lamportsOf(await associatedTokenAccount(deposit.owner, f.usdc.address));

    const [outcome] = [...(await sweepAll()).entries()];
    expect(outcome?.[1]).toMatchObject({ status: 'confirmed', usdcSwept: '4000000' });
    expect(await findSweep(f.db.sql, outcome?.[0] as string)).toMatchObject({ rentLamports: 0n });
    expect(await f.usdcBalance(deposit.owner)).toBe(500_000n);
    expect(await lamportsOf(await associatedTokenAccount(deposit.owner, f.usdc.address))).toBe(rentBefore);
    expect(await depositsHeld()).toBe(0n);
    expect(await sweepAll()).toEqual(new Map());
  });

  it('a deposit landing after signing makes the signed sweep fail (closeAccount needs zero): it is replaced only once provably dead, and the excess stays for its refund', async () => {
    const deposit = await settledDeposit([1_000_000n]);
    const sweeper = createSolanaSweep(deps);
    const [id] = (await sweeper.plan('run-raced')) as [string];
    await createSolanaChainWriter(deps).sign(id, sweepSigner(deps, (await findSweep(f.db.sql, id)) as Sweep));
    const stale = await findChainIntent(f.db.sql, id);
    await depositAgain(deposit, 2_000_000n);

    // The node refuses the stale bytes in preflight; until its blockhash is out of the finalized chain, nothing new is signed.
    await expect(sweeper.advance(id)).rejects.toThrow(/simulation failed/i);
    expect(await findChainIntent(f.db.sql, id)).toMatchObject({ status: 'signed', signature: stale?.signature });
    f.chain.produce(Number(stale?.lastValidBlockHeight) - f.chain.latestBlock.blockHeight + 1 + FINALITY_DEPTH);

    // The replacement takes what is owed, leaving the account open with the newer deposit in it.
    expect([...(await sweepAll(sweeper, 'run-raced')).values()]).toEqual([
      expect.objectContaining({ status: 'confirmed', usdcSwept: '1000000' }),
    ]);
    expect(await findChainIntent(f.db.sql, id)).toMatchObject({ supersededSignatures: [stale?.signature] });
    expect(f.chain.findTransaction(stale?.signature as string)).toBeUndefined();
    expect(await f.usdcBalance(deposit.owner)).toBe(2_000_000n);
    expect(await refundDueAt(deposit.owner)).toBe(2_000_000n);
    expect(await depositsHeld()).toBe(0n);

    // The newer deposit is beyond the price: the customer's, so no later run takes it either.
    expect(await sweepAll()).toEqual(new Map());
    expect(await f.usdcBalance(deposit.owner)).toBe(2_000_000n);
  });

  it('takes only what the ledger holds: a late deposit stays in the open account for its refund', async () => {
    const deposit = await settledDeposit([1_000_000n]);
    await lateDeposit(payoutFixtureTarget(f), deposit, 400_000n);
    const rentBefore = await lamportsOf(await associatedTokenAccount(deposit.owner, f.usdc.address));

    const [outcome] = [...(await sweepAll()).entries()];
    expect(outcome?.[1]).toMatchObject({ status: 'confirmed', usdcSwept: '1000000' });
    expect(await findSweep(f.db.sql, outcome?.[0] as string)).toMatchObject({ rentLamports: 0n, feeLamports: 10_000n });
    expect(await f.usdcBalance(deposit.owner)).toBe(400_000n);
    expect(await lamportsOf(await associatedTokenAccount(deposit.owner, f.usdc.address))).toBe(rentBefore);
    expect(await depositsHeld()).toBe(0n);
    expect(await sweepAll()).toEqual(new Map());
  });

  it('killed after signing: the next run sends the stored bytes, and one transaction lands', async () => {
    await settledDeposit([6_000_000n]);
    const [id] = (await createSolanaSweep(deps).plan('run-killed')) as [string];
    await createSolanaChainWriter(deps).sign(id, sweepSigner(deps, (await findSweep(f.db.sql, id)) as Sweep));
    const signed = await findChainIntent(f.db.sql, id);
    expect(signed).toMatchObject({ status: 'signed', signature: expect.any(String) });
    expect(f.chain.findTransaction(signed?.signature as string)).toBeUndefined();

    const outcomes = await sweepAll(createSolanaSweep(deps), 'run-killed');
    expect(outcomes.get(id)).toMatchObject({ status: 'confirmed', signature: signed?.signature, usdcSwept: '6000000' });
    expect(await findChainIntent(f.db.sql, id)).toMatchObject({ wireTransaction: signed?.wireTransaction, supersededSignatures: [] });
    expect(await depositsHeld()).toBe(0n);
  });

  it('leaves deposits whose payment the treasury did not settle: the ledger holds none of them', async () => {
    const simulated = await settledDeposit([1_500_000n], { settlement: 'simulated' });
    const unsettled = await settledDeposit([2_500_000n], { settlement: 'none' });
    expect(await sweepAll()).toEqual(new Map());
    expect(await f.usdcBalance(simulated.owner)).toBe(1_500_000n);
    expect(await f.usdcBalance(unsettled.owner)).toBe(2_500_000n);
  });
});
