// Gas per deposit of a sweep: one deposit alone against a batch of 50, each on a fresh address (the clone is
// deployed in the sweep, as on a deposit's first sweep) and on clones already deployed. The figures are printed
// for the record; only their order is asserted, since gas, unlike time, is exact on a given node and compiler.
import { getAddress, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addressOf, nextSalt, PAYER, startDepositContractsChain, sweepMany, type DepositContractsChain } from './depositContractsFixture';

const BATCH = 50;
const AMOUNT = 1_000_000n;

describe('gas of a sweep per deposit', () => {
  let setup: DepositContractsChain;
  let usdc: Address;

  beforeAll(async () => {
    setup = await startDepositContractsChain();
    usdc = getAddress(await setup.chain.deployToken({ symbol: 'USDC', decimals: 6 }));
    await setup.chain.mint(usdc, setup.chain.account(PAYER).address, AMOUNT * 1_000n);
    // The collector's balance slot already non-zero, as it is after the first sweep ever.
    const warmUp = nextSalt();
    await fund([warmUp]);
    await sweepMany(setup, [warmUp], usdc);
  });

  afterAll(async () => {
    await setup?.chain.stop();
  });

  async function fund(salts: Hex[]): Promise<void> {
    for (const salt of salts) await setup.chain.transfer(usdc, PAYER, await addressOf(setup, salt), AMOUNT);
  }

  async function perDeposit(salts: Hex[]): Promise<bigint> {
    await fund(salts);
    const { gasUsed, swept } = await sweepMany(setup, salts, usdc);
    expect(swept.map((event) => event.amount)).toEqual(salts.map(() => AMOUNT));
    return gasUsed / BigInt(salts.length);
  }

  test(`a batch of ${BATCH} costs less per deposit than one deposit alone, first sweep and later ones`, async () => {
    const single = [nextSalt()];
    const batch = Array.from({ length: BATCH }, nextSalt);
    const figures = {
      firstSweepAlone: await perDeposit(single),
      firstSweepInBatch: await perDeposit(batch),
      laterSweepAlone: await perDeposit(single),
      laterSweepInBatch: await perDeposit(batch),
    };
    console.log(
      `sweep gas per deposit (USDC-like test token, batch of ${BATCH}): ${JSON.stringify(figures, (_, value: unknown) => (typeof value === 'bigint' ? Number(value) : value))}`,
    );

    expect(figures.firstSweepInBatch).toBeLessThan(figures.firstSweepAlone);
    expect(figures.laterSweepInBatch).toBeLessThan(figures.laterSweepAlone);
    expect(figures.laterSweepAlone).toBeLessThan(figures.firstSweepAlone);
  });
});
