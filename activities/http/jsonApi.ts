// What the service's thin HTTP clients of remote JSON APIs share (Circle's attestation service, java-tron's wallet
// API): one deadline for the status line and the body, and one classification of what went wrong, so an activity
// knows whether to retry. Each client keeps its own error class (its name says which service) on RemoteApiError.
import type { z } from 'zod';

/**
 * `unavailable`: no answer in time, a dropped connection, 429 or 5xx: try again later. `malformed`: an answer that is
 * not the published shape (a proxy's page, an API change): worth retrying, and an alert if it stays. `refused`: the
 * service says the request itself is wrong (another 4xx): it will not succeed as it is.
 */
export type RemoteApiErrorKind = 'unavailable' | 'malformed' | 'refused';

export abstract class RemoteApiError extends Error {
  constructor(
    readonly kind: RemoteApiErrorKind,
    readonly endpoint: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.kind !== 'refused';
  }
}

export type FailWith = (kind: RemoteApiErrorKind, detail: string, status?: number) => RemoteApiError;

/**
 * The JSON body of an answer, or a RemoteApiError by `fail`. `passStatuses` are answered as they are, with no body
 * (an API that says "not yet" with a 404).
 */
export async function fetchJson(
  url: URL,
  init: { method: 'GET' | 'POST'; body?: string },
  options: { timeoutMs: number; fail: FailWith; passStatuses?: readonly number[] },
): Promise<{ status: number; body: unknown }> {
  const { timeoutMs, fail } = options;
  let response: Response;
  let text: string;
  try {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    // The one deadline covers the body too: a server may send its status line and then stall.
    response = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(timeoutMs) });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw fail('unavailable', timedOut ? `no answer within ${timeoutMs} ms` : 'connection failed');
  }
  if (options.passStatuses?.includes(response.status)) return { status: response.status, body: undefined };
  if (response.status === 429 || response.status >= 500) throw fail('unavailable', `HTTP ${response.status}`, response.status);
  if (!response.ok) throw fail('refused', `HTTP ${response.status}`, response.status);
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    throw fail('malformed', 'the answer is not JSON', response.status);
  }
}

/** `body` in `schema`'s shape, or a `malformed` error naming where it is not. */
export function parseAnswer<T>(schema: z.ZodType<T>, body: unknown, fail: FailWith): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw fail('malformed', `unexpected answer at ${parsed.error.issues[0]?.path.join('.') || 'body'}`);
  return parsed.data;
}
