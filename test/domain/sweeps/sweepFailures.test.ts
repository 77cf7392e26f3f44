import { describe, expect, it } from 'vitest';
import { failingAddresses, SweepCallRevertsError } from '../../../domain/sweeps/sweepFailures';

/** A simulation that reverts whenever the batch holds a blacklisted address, counting its calls. */
function simulator(blacklisted: readonly number[]) {
  const calls: number[][] = [];
  const simulate = (batch: readonly number[]) => {
    calls.push([...batch]);
    const bad = batch.find((address) => blacklisted.includes(address));
    return Promise.resolve(bad === undefined ? undefined : `Blacklisted(${bad})`);
  };
  return { simulate, calls };
}

const addresses = Array.from({ length: 50 }, (_, i) => i);

describe('failing forwarder addresses by bisection', () => {
  it('finds none, in one simulation, when the batch passes', async () => {
    const { simulate, calls } = simulator([]);
    expect(await failingAddresses(addresses, simulate)).toEqual(new Map());
    expect(calls).toHaveLength(1);
  });

  it('finds the one failing address of 50 with its reason, in far fewer simulations than one per address', async () => {
    const { simulate, calls } = simulator([37]);
    expect(await failingAddresses(addresses, simulate)).toEqual(new Map([[37, 'Blacklisted(37)']]));
    expect(calls.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(50)) + 2);
  });

  it('finds every failing address, first and last included, and keeps every passing one', async () => {
    const { simulate } = simulator([0, 24, 25, 49]);
    expect([...(await failingAddresses(addresses, simulate)).keys()]).toEqual([0, 24, 25, 49]);
  });

  it('finds a lone address that fails, and nothing in an empty batch', async () => {
    expect(await failingAddresses([7], simulator([7]).simulate)).toEqual(new Map([[7, 'Blacklisted(7)']]));
    const empty = simulator([]);
    expect(await failingAddresses([], empty.simulate)).toEqual(new Map());
    expect(empty.calls).toEqual([]);
  });

  it('counts no address when a sweep of none reverts too: the call is at fault, not the addresses', async () => {
    const notSweeper = () => Promise.resolve('NotSweeper(relayer)');
    await expect(failingAddresses(addresses, notSweeper)).rejects.toThrow(SweepCallRevertsError);
  });
});
