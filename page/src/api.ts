/// <reference lib="dom" />
// Every call the page makes: same origin, the session token as a Bearer header (kept out of request
// logs and of the server's query strings), and the user-type header the API requires (docs/api.md#authentication).

export class ApiFailure extends Error {
  override name = 'ApiFailure';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Api {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
}

export function createApi(token: string): Api {
  async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'x-service-user-type': 'checkout',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch {
      throw new ApiFailure(0, 'The checkout service cannot be reached. Check your connection; we keep trying.');
    }
    const payload = (await response.json().catch(() => ({}))) as { data?: T; error?: string; details?: { validation_errors?: string[] } };
    if (!response.ok || payload.data === undefined) {
      const detail = payload.details?.validation_errors?.join('; ');
      throw new ApiFailure(
        response.status,
        detail ? `${payload.error ?? 'Request refused'}: ${detail}` : (payload.error ?? `Request failed (${response.status})`),
      );
    }
    return payload.data;
  }
  return {
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body),
  };
}
