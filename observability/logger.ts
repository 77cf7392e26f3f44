import { pino, type Logger } from 'pino';
import { prettyDestination } from './prettyLog';

/**
 * Header and field names whose values are credentials; pino replaces them before a line is written. A bare `token`
 * is not one of them: across the service it names a token symbol (USDC, USDT), which operators need to read; the
 * hosted page's session token arrives as `?token=` and is redacted there, or travels as `sessionToken`.
 */
export const REDACTED_LOG_FIELDS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.query.token',
  'apiKey',
  'sessionToken',
  'secret',
  'password',
  'databaseUrl',
];

export type LogFormat = 'json' | 'pretty';

export function createLogger(level: string, name: string, format: LogFormat = 'json'): Logger {
  const options = { name, level, redact: { paths: REDACTED_LOG_FIELDS, censor: '[redacted]' }, base: { service: name } };
  return format === 'pretty' ? pino(options, prettyDestination()) : pino(options);
}

/** An error as a log field: class and message, never a stack (it would show SQL and file paths). */
export function errorFields(error: unknown): { name: string; message: string; code?: string } {
  if (error instanceof Error) {
    const { code, shortMessage } = error as { code?: unknown; shortMessage?: unknown };
    // viem's full message appends the endpoint URL, which carries the provider's API key in its path
    // (…/v3/<key>); its shortMessage is the same statement without those details.
    const message = typeof shortMessage === 'string' ? shortMessage : error.message;
    return { name: error.name, message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'NonError', message: String(error) };
}

export type { Logger };
