// Rate-limit counting without a write per request. The shared count in Postgres hands out request
// numbers of the current window; a replica claims them a lease at a time and numbers its requests from the lease
// in memory, so only one request in `leaseSize` writes the counter row. A number above the limit is a refusal,
// wherever it was claimed, so the replicas together never serve more than the limit in a window. What a lease
// costs is the other side: numbers a replica claimed but has not used are nobody else's, so requests spread over
// R replicas can be refused up to (R − 1) × (leaseSize − 1) requests short of the limit.

/** The share of the limit one claim takes: one hundredth, so each other replica can hold back at most 1 % of it. */
export const LEASE_FRACTION = 100;

/** Request numbers claimed at once for a budget of `limit` per window; 1 (a write per request) below 200. */
export function leaseSize(limit: number): number {
  return Math.max(1, Math.floor(limit / LEASE_FRACTION));
}

export interface ClaimedNumbers {
  /** The highest request number claimed (the shared count after the claim); the claim holds it and the ones below it, as many as were asked for. */
  count: number;
  /** Milliseconds until the window the numbers belong to ends. */
  windowEndsInMs: number;
}

export interface NumberedRequest {
  /** The request's number in its window, from 1: above the limit is over it. */
  count: number;
  /** Whole seconds until the window ends (at least 1). */
  resetSeconds: number;
}

interface Lease {
  next: number;
  last: number;
  windowEndMs: number;
}

/** One process's leases, per budget (an API key): shared by every route, so one replica holds one lease per key. */
export class RequestLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly claiming = new Map<string, Promise<void>>();

  /**
   * Numbers one request against `budget`. `claim(size)` takes the next `size` numbers of the shared count;
   * concurrent requests that find the lease spent wait for one claim rather than each making their own.
   */
  async number(
    budget: string,
    size: number,
    nowMs: () => number,
    claim: (size: number) => Promise<ClaimedNumbers>,
  ): Promise<NumberedRequest> {
    for (;;) {
      const lease = this.leases.get(budget);
      const now = nowMs();
      if (lease && lease.next <= lease.last && lease.windowEndMs > now) {
        const count = lease.next;
        lease.next += 1;
        return { count, resetSeconds: Math.max(1, Math.ceil((lease.windowEndMs - now) / 1000)) };
      }
      let pending = this.claiming.get(budget);
      if (!pending) {
        const started = nowMs();
        pending = claim(size)
          .then(({ count, windowEndsInMs }) => {
            this.leases.set(budget, { next: count - size + 1, last: count, windowEndMs: started + windowEndsInMs });
          })
          .finally(() => this.claiming.delete(budget));
        this.claiming.set(budget, pending);
      }
      await pending;
    }
  }
}
