// eth_subscribe("newHeads") over a websocket (WS_URLS_<CHAIN>_<NETWORK>): each head wakes the indexer loop and
// hands it the header (number, hash, parent hash, timestamp), so a block that continues the cursor costs only its
// log query; anything else, the loop reads from the node as it does when polling. viem's own reconnect gives up
// after a few attempts; this reconnects for as long as the indexer runs, rotating through the URLs.
import type { Logger } from 'pino';
import { isHash, webSocket } from 'viem';
import { errorFields } from '../../observability/logger';
import type { BlockHeader } from '../core/chainReader';
import type { ChainKey } from '../core/cursor';
import { HeadWakeup, type HeadNotifications } from '../core/headNotifications';
import type { ChainMetrics } from '../core/metrics';

export interface NewHeadsOptions {
  key: ChainKey;
  urls: string[];
  /** How long opening the socket and subscribing may take. */
  timeoutMs: number;
  /** The pause before subscribing again after the socket closed or failed. */
  reconnectMs: number;
  metrics: ChainMetrics;
  logger: Logger;
}

export function subscribeToNewHeads(options: NewHeadsOptions): HeadNotifications {
  const { key, metrics, logger } = options;
  const wakeup = new HeadWakeup();
  let live = false;
  let closed = false;
  let attempt = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let closeSocket: (() => void) | undefined;
  metrics.subscriptionLive = false;

  const setLive = (value: boolean) => {
    live = value;
    metrics.subscriptionLive = value;
  };

  /** Failed attempts since the subscription was last live: only the first is a warning, the rest would be noise. */
  let failures = 0;

  const connect = async () => {
    if (closed) return;
    const url = options.urls[attempt % options.urls.length] as string;
    attempt += 1;
    // A socket per attempt: viem shares one per (url, options, key), and one that is still opening from an
    // abandoned attempt, or another chain's, must not be the one this attempt uses or closes.
    const transport = webSocket(url, {
      key: `newHeads:${key.chain}:${key.network}:${attempt}`,
      reconnect: false,
      timeout: options.timeoutMs,
    })({});
    let failed = false;
    // Closes the socket whenever it opens, should that be after this attempt gave up on it.
    const release = () =>
      void transport.value?.getRpcClient().then(
        (client) => client.close(),
        () => undefined,
      );
    const fail = (error: unknown) => {
      clearTimeout(timer);
      if (failed || closed) return;
      failed = true;
      const wasLive = live;
      setLive(false);
      release();
      failures += 1;
      const message = wasLive ? 'new-head subscription lost; polling until it is back' : 'new-head subscription failed; polling meanwhile';
      logger[failures === 1 ? 'warn' : 'debug']({ ...key, err: errorFields(error), attempts: failures }, message);
      retryTimer = setTimeout(() => void connect(), options.reconnectMs);
    };
    // viem waits for the socket to open without a deadline; a blackholed endpoint would hold the attempt forever.
    const timer = setTimeout(() => fail(new Error(`no subscription within ${options.timeoutMs} ms`)), options.timeoutMs);
    try {
      await transport.value?.subscribe({
        params: ['newHeads'],
        onData: (data: { result?: unknown }) => wakeup.notify(pushedHeader(data.result)),
        onError: fail,
      });
    } catch (error) {
      fail(error);
      return;
    }
    clearTimeout(timer);
    if (failed || closed) {
      release();
      return;
    }
    closeSocket = release;
    failures = 0;
    setLive(true);
    logger.info({ ...key, url: new URL(url).host }, 'subscribed to new heads');
    // Heads that came while the socket was down were not announced: read once now.
    wakeup.notify();
  };

  void connect();
  return {
    get live() {
      return live;
    },
    wait: (ms, signal) => wakeup.wait(ms, signal),
    take: () => wakeup.take(),
    close() {
      closed = true;
      clearTimeout(retryTimer);
      closeSocket?.();
      setLive(false);
    },
  };
}

const QUANTITY = /^0x[0-9a-f]+$/i;

/** The header of a newHeads notification; undefined when it lacks a field, and the loop then asks the node. */
function pushedHeader(raw: unknown): BlockHeader | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { number, hash, parentHash, timestamp } = raw as Record<string, unknown>;
  if (typeof number !== 'string' || !QUANTITY.test(number) || typeof timestamp !== 'string' || !QUANTITY.test(timestamp)) return undefined;
  if (typeof hash !== 'string' || !isHash(hash) || typeof parentHash !== 'string' || !isHash(parentHash)) return undefined;
  return { number: BigInt(number), hash, parentHash, timestamp: BigInt(timestamp) };
}
