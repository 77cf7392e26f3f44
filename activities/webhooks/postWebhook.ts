// One HTTP POST of a webhook, with a hard timeout and no redirects (a redirect could lead a signed
// payload anywhere). Answers the status code; network failures are thrown.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

export interface PostResult {
  statusCode: number;
}

export function postWebhook(url: URL, body: string, headers: Record<string, string>, options: { timeoutMs: number; lookup?: LookupFunction }): Promise<PostResult> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body).toString() },
        timeout: options.timeoutMs,
        ...(options.lookup ? { lookup: options.lookup } : {}),
      },
      (res) => {
        // The receiver's answer is not read beyond its status: it is theirs, and may be large.
        res.resume();
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0 }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no response within ${options.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
