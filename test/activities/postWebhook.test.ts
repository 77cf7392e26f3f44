// One delivery attempt ends by one overall deadline whatever the receiver does, ends at
// once when the activity is cancelled, and answers on the status line without reading the body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../activities/webhooks/postWebhook';
import { startBlackholeReceiver, startTricklingBodyReceiver, startTricklingReceiver, type SlowReceiver } from '../support/slowReceivers';

let trickling: SlowReceiver;
let tricklingBody: SlowReceiver;
let blackhole: SlowReceiver;

beforeAll(async () => {
  [trickling, tricklingBody, blackhole] = await Promise.all([
    startTricklingReceiver(200),
    startTricklingBodyReceiver(200),
    startBlackholeReceiver(),
  ]);
});
afterAll(() => Promise.all([trickling, tricklingBody, blackhole].map((r) => r?.close())));

const post = (receiver: SlowReceiver, options: { timeoutMs: number; signal?: AbortSignal }) =>
  postWebhook(new URL(receiver.url), '{}', {}, options);

describe('postWebhook', () => {
  it('gives up on a receiver trickling its status line at the deadline, though bytes keep arriving', async () => {
    // A byte every 200 ms would keep an idle-socket timeout of 1 s from ever firing.
    await expect(post(trickling, { timeoutMs: 1_000 })).rejects.toThrow('no answer within 1000 ms');
    await expect.poll(() => trickling.open()).toBe(0);
  });

  it('gives up on a receiver that accepts and never answers', async () => {
    await expect(post(blackhole, { timeoutMs: 1_000 })).rejects.toThrow('no answer within 1000 ms');
  });

  it('answers on the status line and drops a body that never ends', async () => {
    await expect(post(tricklingBody, { timeoutMs: 30_000 })).resolves.toEqual({ statusCode: 200 });
    await expect.poll(() => tricklingBody.open()).toBe(0);
  });

  it('stops at once when the activity is cancelled, long before its deadline', async () => {
    const cancellation = new AbortController();
    const attempt = post(blackhole, { timeoutMs: 60_000, signal: cancellation.signal });
    setTimeout(() => cancellation.abort(), 100);
    await expect(attempt).rejects.toThrow('delivery cancelled');
  });
});
