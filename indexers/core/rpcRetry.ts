// Short, classified retries around one RPC call. Only failures that a later attempt can cure are retried
// (timeouts, 429, 5xx, dropped connections); the caller never advances past a range it failed to read,
// because a call that exhausts its attempts throws.
import { sleep } from './sleep';

export type RpcErrorClass = 'timeout' | 'rate-limited' | 'server' | 'network' | 'range-too-large' | 'fatal';

const RETRYABLE: ReadonlySet<RpcErrorClass> = new Set(['timeout', 'rate-limited', 'server', 'network']);

export class RpcCallError extends Error {
  override name = 'RpcCallError';
  constructor(
    readonly method: string,
    readonly errorClass: RpcErrorClass,
    readonly attempts: number,
    cause: unknown,
  ) {
    super(
      `${method} failed (${errorClass}) after ${attempts} attempt(s): ${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}`,
      {
        cause,
      },
    );
  }
}

export interface RetryPolicy {
  attempts: number;
  /** First pause; doubled after every failure, capped at maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
}

export interface RetryHooks {
  classify(error: unknown): RpcErrorClass;
  onAttempt?(method: string): void;
  onError?(method: string, errorClass: RpcErrorClass): void;
  signal?: AbortSignal;
}

/** `call(attempt)` gets the attempt number so a caller with several endpoints can rotate through them. */
export async function withRpcRetries<T>(
  method: string,
  policy: RetryPolicy,
  hooks: RetryHooks,
  call: (attempt: number) => Promise<T>,
): Promise<T> {
  let pause = policy.backoffMs;
  for (let attempt = 0; ; attempt++) {
    hooks.onAttempt?.(method);
    try {
      return await call(attempt);
    } catch (error) {
      const errorClass = hooks.classify(error);
      hooks.onError?.(method, errorClass);
      if (!RETRYABLE.has(errorClass) || attempt + 1 >= policy.attempts || hooks.signal?.aborted) {
        throw new RpcCallError(method, errorClass, attempt + 1, error);
      }
      // Jitter keeps several indexers that failed together from retrying in lockstep against a rate limit.
      await sleep(pause / 2 + Math.random() * (pause / 2), hooks.signal);
      pause = Math.min(pause * 2, policy.maxBackoffMs);
    }
  }
}
