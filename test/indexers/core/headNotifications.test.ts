import { describe, expect, test } from 'vitest';
import type { BlockHeader } from '../../../indexers/core/chainReader';
import { HeadWakeup } from '../../../indexers/core/headNotifications';

const TEN_MINUTES = 600_000;

function header(number: bigint): BlockHeader {
  return {
    number,
    hash: `0x${number.toString(16).padStart(64, '0')}`,
    parentHash: `0x${(number - 1n).toString(16).padStart(64, '0')}`,
    timestamp: number,
  };
}

/** Whether `promise` has settled once every callback already queued has run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('HeadWakeup', () => {
  test('headers come out oldest first, once each', () => {
    const wakeup = new HeadWakeup();
    wakeup.notify(header(7n));
    wakeup.notify(header(8n));
    expect(wakeup.take().map((h) => h.number)).toEqual([7n, 8n]);
    expect(wakeup.take()).toEqual([]);
  });

  test('a head taken while the loop was busy does not wake it again: that would read the node for nothing', async () => {
    const wakeup = new HeadWakeup();
    const signal = new AbortController().signal;
    // Arrives during a tick, which takes it before the loop next waits.
    wakeup.notify(header(9n));
    expect(wakeup.take()).toHaveLength(1);
    const waiting = wakeup.wait(TEN_MINUTES, signal);
    expect(await settled(waiting)).toBe(false);
    wakeup.notify(header(10n));
    expect(await settled(waiting)).toBe(true);
  });

  test('a wake without a header still ends the wait, and leaves nothing to take', async () => {
    const wakeup = new HeadWakeup();
    const waiting = wakeup.wait(TEN_MINUTES, new AbortController().signal);
    wakeup.notify();
    expect(await settled(waiting)).toBe(true);
    expect(wakeup.take()).toEqual([]);
  });
});
