import { describe, expect, it } from 'vitest';
import { leaseSize, RequestLeases, type ClaimedNumbers } from '../../../domain/security/requestLeases';

/** The shared count as Postgres keeps it: numbers handed out in claims, one window of `windowMs`. */
function sharedCount(windowMs = 60_000) {
  let count = 0;
  const claims: number[] = [];
  return {
    claims,
    claim: async (size: number): Promise<ClaimedNumbers> => {
      claims.push(size);
      count += size;
      return { count, windowEndsInMs: windowMs };
    },
  };
}

describe('leaseSize', () => {
  it('claims one hundredth of the limit, and one number at a time below 200', () => {
    expect([1, 3, 199, 200, 600, 1_000_000].map(leaseSize)).toEqual([1, 1, 1, 2, 6, 10_000]);
  });
});

describe('RequestLeases', () => {
  it('numbers requests from one claim until the lease is spent, then claims the next numbers', async () => {
    const leases = new RequestLeases();
    const shared = sharedCount();
    const counts = [];
    for (let i = 0; i < 7; i += 1) counts.push((await leases.number('key', 3, () => 0, shared.claim)).count);
    expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(shared.claims).toEqual([3, 3, 3]);
  });

  it('numbers around the numbers other replicas claimed, never the same number twice', async () => {
    const here = new RequestLeases();
    const there = new RequestLeases();
    const shared = sharedCount();
    const counts = [];
    for (const leases of [here, there, here, there, here]) counts.push((await leases.number('key', 2, () => 0, shared.claim)).count);
    expect(counts).toEqual([1, 3, 2, 4, 5]);
  });

  it('makes concurrent requests that find the lease spent wait for one claim', async () => {
    const leases = new RequestLeases();
    const shared = sharedCount();
    const counts = await Promise.all([1, 2, 3, 4].map(() => leases.number('key', 4, () => 0, shared.claim)));
    expect(counts.map((c) => c.count).sort()).toEqual([1, 2, 3, 4]);
    expect(shared.claims).toEqual([4]);
  });

  it('drops a lease when its window ends, and says when that is in whole seconds', async () => {
    const leases = new RequestLeases();
    const shared = sharedCount(10_500);
    let now = 0;
    expect(await leases.number('key', 5, () => now, shared.claim)).toEqual({ count: 1, resetSeconds: 11 });
    now = 10_000;
    expect(await leases.number('key', 5, () => now, shared.claim)).toEqual({ count: 2, resetSeconds: 1 });
    now = 10_500;
    expect((await leases.number('key', 5, () => now, shared.claim)).count).toBe(6);
    expect(shared.claims).toEqual([5, 5]);
  });

  it('keeps one lease per budget', async () => {
    const leases = new RequestLeases();
    const a = sharedCount();
    const b = sharedCount();
    await leases.number('a', 2, () => 0, a.claim);
    expect((await leases.number('b', 2, () => 0, b.claim)).count).toBe(1);
    expect((await leases.number('a', 2, () => 0, a.claim)).count).toBe(2);
  });
});
