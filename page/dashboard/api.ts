/// <reference lib="dom" />
// The dashboard's calls to its own JSON API: same origin, the session cookie goes along by itself, and
// every state change carries the CSRF token /dashboard/api/me handed out.
let csrfToken = '';

export const setCsrfToken = (token: string): void => {
  csrfToken = token;
};

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problems: string[] = [],
  ) {
    super(message);
  }
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`/dashboard/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await response.json().catch(() => ({}))) as { data?: T; error?: string; details?: { validation_errors?: string[] } };
  if (!response.ok)
    throw new ApiFailure(response.status, json.error ?? `Request failed (${response.status})`, json.details?.validation_errors ?? []);
  return json.data as T;
}
