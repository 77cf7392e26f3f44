import { expectDocumentedResponse } from './openApiCheck';

/** A merchant-server style HTTP call, whose response must be as /openapi.json documents it; `headers` replaces the default auth headers entirely when given. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { apiKey?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<{
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { data?: Record<string, unknown>; error?: string; details?: { validation_errors: string[] } };
}> {
  const headers: Record<string, string> = options.headers ?? {
    'x-service-user-type': 'checkout',
    ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
  };
  const hasBody = options.body !== undefined || options.rawBody !== undefined;
  if (hasBody && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(hasBody ? { body: options.rawBody ?? JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  await expectDocumentedResponse(baseUrl, method, path, { status: response.status, headers: response.headers, text });
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
}
