// New heads pushed by a node (an EVM websocket subscription) cut the indexer's pause short, so a block is read
// as soon as it exists rather than up to a poll interval later. Polling stays as the safety net: a socket can
// go silent without closing.

export interface HeadNotifications {
  /** true while the subscription is established; the loop then polls only at its slower safety-net pace. */
  readonly live: boolean;
  /** Resolves at the next head (or at once if one arrived since the last wait), after `ms`, or on abort. */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  close(): void;
}

/** The waiting side: notify() from the push source, wait() from the loop. */
export class HeadWakeup {
  private pending = false;
  private wake: (() => void) | undefined;

  notify(): void {
    if (this.wake) this.wake();
    else this.pending = true;
  }

  wait(ms: number, signal: AbortSignal): Promise<void> {
    if (this.pending || signal.aborted) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        this.pending = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }
}
