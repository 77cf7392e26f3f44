/// <reference lib="dom" />
// The claim page's two calls: same origin, no credential but the token in the path.
import type { RefundClaimRequest, RefundClaimState } from '../../../domain/wire/refund';

export class ClaimFailure extends Error {
  override name = 'ClaimFailure';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ClaimApi {
  state(): Promise<RefundClaimState>;
  claim(body: RefundClaimRequest): Promise<RefundClaimState>;
}

export function createClaimApi(token: string): ClaimApi {
  const base = `/refunds/${encodeURIComponent(token)}`;
  async function request(path: string, body?: unknown): Promise<RefundClaimState> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch {
      throw new ClaimFailure(0, 'The refund service cannot be reached. Check your connection and try again.');
    }
    const payload = (await response.json().catch(() => ({}))) as {
      data?: RefundClaimState;
      error?: string;
      details?: { validation_errors?: string[] };
    };
    if (!response.ok || payload.data === undefined) {
      // A field's problem reads best without its field name: "destination.address: That is a token account…".
      const detail = payload.details?.validation_errors?.map((e) => e.replace(/^[\w.]+: /, '')).join('; ');
      throw new ClaimFailure(response.status, detail ?? payload.error ?? `Request failed (${response.status})`);
    }
    return payload.data;
  }
  return { state: () => request('/state'), claim: (body) => request('/claim', body) };
}
