// Follows one session the way a merchant and an operator would: its status from GET /checkout/sessions/:id, and
// while it is confirming, the deposit's confirmation count from the workflow's getState query (the public read
// model carries no count). Prints each change once.
import type { Client } from '@temporalio/client';
import { getStateQuery } from '../../workflows/messages';

export interface Progress {
  status: string;
  /** Of the session's (non-reorged) deposit, once one was seen. */
  confirmations: number | undefined;
}

export interface SessionProgress {
  /** Polls until `done` holds, printing every change; rejects with `what` after `timeoutMs`. */
  until(done: (progress: Progress) => boolean, timeoutMs: number, what: string): Promise<Progress>;
}

const POLL_MS = 150;

export function followSession(options: {
  readStatus: () => Promise<string>;
  temporal: Client;
  sessionId: string;
  confirmationsRequired: number;
  print: (line: string) => void;
}): SessionProgress {
  let lastLine = '';
  const read = async (): Promise<Progress> => {
    const status = await options.readStatus();
    if (status === 'pending' || status === 'awaiting_payment') return { status, confirmations: undefined };
    const state = await options.temporal.workflow.getHandle(options.sessionId).query(getStateQuery);
    return { status, confirmations: state.deposits.find((deposit) => deposit.stage !== 'reorged')?.confirmations };
  };
  const show = (progress: Progress) => {
    const count = progress.confirmations === undefined ? '' : ` ${progress.confirmations}/${options.confirmationsRequired}`;
    const line = `status ${progress.status}${count}`;
    if (line !== lastLine) options.print(line);
    lastLine = line;
  };
  return {
    async until(done, timeoutMs, what) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const progress = await read();
        show(progress);
        if (done(progress)) return progress;
        if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s (last: status ${progress.status})`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
  };
}
