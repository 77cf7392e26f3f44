// One HTTP POST of a webhook under one overall deadline: DNS, connect, sending and the status line must all
// fit in `timeoutMs`, and the activity's cancellation aborts it at once. A receiver that trickles its answer
// byte by byte cannot hold a delivery slot past the deadline. No redirects (a redirect could lead a signed
// payload anywhere). Answers the status code; the body is the receiver's and is never read.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

export interface PostResult {
  statusCode: number;
}

export interface PostOptions {
  timeoutMs: number;
  lookup?: LookupFunction | undefined;
  /** The activity's cancellation: aborts the request as the deadline would. */
  signal?: AbortSignal | undefined;
}

export function postWebhook(url: URL, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal, options.timeoutMs));
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body).toString() },
        ...(options.lookup ? { lookup: options.lookup } : {}),
      },
      (res) => {
        // The status line is the answer: the body is dropped unread, and the socket with it.
        resolve({ statusCode: res.statusCode ?? 0 });
        res.destroy();
      },
    );
    const abort = () => req.destroy(abortReason(signal, options.timeoutMs));
    signal.addEventListener('abort', abort, { once: true });
    req.on('close', () => signal.removeEventListener('abort', abort));
    req.on('error', reject);
    req.end(body);
  });
}

function abortReason(signal: AbortSignal, timeoutMs: number): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') return new Error(`no answer within ${timeoutMs} ms`);
  return new Error('delivery cancelled');
}
