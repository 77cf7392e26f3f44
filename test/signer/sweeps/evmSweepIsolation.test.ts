// Failure isolation in EVM forwarder sweeps (signer/sweeps/forwarderSweep.ts) on a real Hardhat node: a token
// that blacklists one forwarder address would revert every sweepMany holding it. The plan simulates each batch,
// leaves the failing address out so the others are swept, counts its failures, and stops planning it from
// SWEEP_MAX_ADDRESS_FAILURES on until an operator deletes its row.
import { fileURLToPath } from 'node:url';
import { toFunctionSelector, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmSweep } from '../../../signer/sweeps/evmSweep';
import { unbalancedLedgerGroups } from '../../../db/repositories/ledger';
import { compileContract, type CompiledContract, type SolidityUnit } from '../../../toolchain/solidity/compileSolidity';
import * as depositFactory from '../../../contracts/artifacts/depositFactory';
import { SweepCallRevertsError } from '../../../domain/sweeps/sweepFailures';
import { COLLECTOR, OWNER, startDepositContractsChain, SWEEPER } from '../../contracts/depositContractsFixture';
import { createTestDatabase } from '../../support/database';
import {
  connectSigner,
  deposit,
  forwarderSession,
  sweeperDeps,
  type EvmSweepFixture,
  type SessionDepositAddress,
  sweepToEnd as sweepUntilLanded,
} from './evmSweepFixture';

const BLACKLIST_TOKEN: SolidityUnit = {
  name: 'BlacklistToken',
  files: [
    new URL('../../contracts/BlacklistToken.sol', import.meta.url),
    new URL('../../../toolchain/localChain/TestToken.sol', import.meta.url),
  ].map((url) => fileURLToPath(url)),
};

/** The forwarder's TransferFailed(token) when the token refuses: the node reports its selector in the return data. */
const TRANSFER_FAILED = toFunctionSelector('TransferFailed(address)');

let f: EvmSweepFixture;
let compiled: CompiledContract;
let token: Address;

beforeAll(async () => {
  const [contracts, db] = await Promise.all([startDepositContractsChain(), createTestDatabase()]);
  f = { contracts, db, signer: connectSigner(db) };
  compiled = await compileContract(BLACKLIST_TOKEN, 'BlacklistToken');
  const hash = await contracts.chain.walletClient.deployContract({ abi: compiled.abi, bytecode: compiled.bytecode });
  token = (await contracts.chain.publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
});
afterAll(async () => {
  await f?.signer.end({ timeout: 5 });
  await Promise.all([f?.contracts.chain.stop(), f?.db.drop()]);
});

const sweeper = () => createEvmSweep(sweeperDeps(f, 'base', [{ symbol: 'USDC', address: token, decimals: 6 }]));
let runs = 0;
const runKey = () => `sweep_evm_isolation-${runs++}`;
const balanceOf = (owner: Address) => f.contracts.chain.tokenBalance(token, owner);

async function blacklist(address: Address, value: boolean): Promise<void> {
  const hash = await f.contracts.chain.walletClient.writeContract({
    address: token,
    abi: compiled.abi,
    functionName: 'setBlacklisted',
    args: [address, value],
  });
  await f.contracts.chain.publicClient.waitForTransactionReceipt({ hash });
}

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

async function funded(amounts: bigint[]): Promise<SessionDepositAddress[]> {
  const made: SessionDepositAddress[] = [];
  for (const amount of amounts) {
    const session = await forwarderSession(f);
    await deposit(f, 'base', session, token, amount);
    made.push(session);
  }
  return made;
}

const sweepToEnd = (sweep: ReturnType<typeof sweeper>, id: string) => sweepUntilLanded(f, sweep, id);

const failuresOf = async (address: Address) =>
  (
    await f.db.sql<{ failures: number; last_error: string }[]>`
      select failures, last_error from sweep_address_failures where mode = 'test' and chain = 'base' and token = 'USDC' and address = ${address.toLowerCase()}`
  )[0];

describe('EVM forwarder sweep with an address whose transfer reverts', () => {
  it('sweeps the others, counts the failing one, and plans it no more from the third failure until an operator clears it', async () => {
    const [first, blocked, last] = await funded([1_000_000n, 2_000_000n, 3_000_000n]);
    await blacklist(blocked!.address, true);
    const collectorBefore = await balanceOf(f.contracts.chain.account(COLLECTOR).address);

    const planned = await sweeper().plan('USDC', runKey());
    expect(planned.skipped).toEqual([
      expect.objectContaining({ address: blocked!.address.toLowerCase(), sessionId: blocked!.sessionId, failures: 1, excluded: false }),
    ]);
    expect(planned.skipped[0]!.reason).toContain(TRANSFER_FAILED);
    expect(planned.sweepIds).toHaveLength(1);
    expect(await sweepToEnd(sweeper(), planned.sweepIds[0]!)).toMatchObject({ status: 'finalized', moved: '4000000' });
    expect(await balanceOf(first!.address)).toBe(0n);
    expect(await balanceOf(last!.address)).toBe(0n);
    expect(await balanceOf(blocked!.address)).toBe(2_000_000n);
    expect(await balanceOf(f.contracts.chain.account(COLLECTOR).address)).toBe(collectorBefore + 4_000_000n);

    for (const failures of [2, 3]) {
      const again = await sweeper().plan('USDC', runKey());
      expect(again.sweepIds).toEqual([]);
      expect(again.skipped).toEqual([expect.objectContaining({ failures, excluded: failures === 3 })]);
    }
    // Excluded: not even simulated, its count stays where it stopped.
    expect(await sweeper().plan('USDC', runKey())).toMatchObject({ sweepIds: [], skipped: [] });
    expect(await failuresOf(blocked!.address)).toMatchObject({ failures: 3 });

    // The operator, once the issuer lifts the blacklisting, clears the address (checkout-admin sweep clear-failure deletes the row).
    await blacklist(blocked!.address, false);
    await f.db.sql`delete from sweep_address_failures where chain = 'base' and address = ${blocked!.address.toLowerCase()}`;
    const cleared = await sweeper().plan('USDC', runKey());
    expect(cleared.skipped).toEqual([]);
    expect(await sweepToEnd(sweeper(), cleared.sweepIds[0]!)).toMatchObject({ status: 'finalized', moved: '2000000' });
    expect(await unbalancedLedgerGroups(f.db.sql)).toEqual([]);
  });

  it('forgets the failures of an address whose sweep simulates again before the limit', async () => {
    const [blocked] = await funded([5_000_000n]);
    await blacklist(blocked!.address, true);
    expect((await sweeper().plan('USDC', runKey())).skipped).toHaveLength(1);
    expect(await failuresOf(blocked!.address)).toMatchObject({
      failures: 1,
      last_error: expect.stringContaining(TRANSFER_FAILED) as unknown,
    });
    await blacklist(blocked!.address, false);
    const planned = await sweeper().plan('USDC', runKey());
    expect(planned).toMatchObject({ skipped: [] });
    expect(await failuresOf(blocked!.address)).toBeUndefined();
    expect(await sweepToEnd(sweeper(), planned.sweepIds[0]!)).toMatchObject({ status: 'finalized', moved: '5000000' });
  });

  it('counts no address when the relayer cannot sweep at all: the plan fails for Temporal to retry', async () => {
    const [owed] = await funded([6_000_000n]);
    await setSweeper(false);
    await expect(sweeper().plan('USDC', runKey())).rejects.toThrow(SweepCallRevertsError);
    expect(await failuresOf(owed!.address)).toBeUndefined();
    await setSweeper(true);
    const planned = await sweeper().plan('USDC', runKey());
    expect(await sweepToEnd(sweeper(), planned.sweepIds[0]!)).toMatchObject({ status: 'finalized', moved: '6000000' });
  });
});
