// New heads pushed by a node (an EVM websocket subscription) cut the indexer's pause short, so a block is read
// as soon as it exists rather than up to a poll interval later, and their headers spare the loop asking the node
// for the head and the block: following the head, a block costs its log query alone. Polling stays as the
// safety net: a socket can go silent without closing.
import type { BlockHeader } from './chainReader';

export interface HeadNotifications {
  /** true while the subscription is established; the loop then polls only at its slower safety-net pace. */
  readonly live: boolean;
  /** Resolves at the next head (or at once if one arrived since the last take), after `ms`, or on abort. */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  /**
   * The headers pushed since the last take, oldest first. Empty when the loop woke without one (the pause ran
   * out, or the subscription was just made and heads may have been missed): the loop then asks the node.
   */
  take(): BlockHeader[];
  close(): void;
}

// Headers wait here only while a tick runs; a loop further behind than this reads from the node's head anyway.
const MAX_WAITING_HEADERS = 16;

/** The waiting side: notify() from the push source, wait() and take() from the loop. */
export class HeadWakeup {
  private pending = false;
  private wake: (() => void) | undefined;
  private headers: BlockHeader[] = [];

  /** A new head, with its header where the source has one. */
  notify(header?: BlockHeader): void {
    if (header) {
      this.headers.push(header);
      // Dropping the oldest leaves a gap the loop cannot follow, so it reads the range instead: nothing is lost.
      if (this.headers.length > MAX_WAITING_HEADERS) this.headers.shift();
    }
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

  /** Taken headers are being read, so they no longer owe the loop a wake-up. */
  take(): BlockHeader[] {
    const taken = this.headers;
    this.headers = [];
    this.pending = false;
    return taken;
  }
}
