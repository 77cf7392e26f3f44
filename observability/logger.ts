import { pino, type Logger } from 'pino';
import { prettyDestination } from './prettyLog';

/** Header and field names whose values are credentials; pino replaces them before a line is written. */
const REDACTED = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.query.token',
  'apiKey',
  'token',
  'secret',
  'password',
  'databaseUrl',
];

export type LogFormat = 'json' | 'pretty';

export function createLogger(level: string, name: string, format: LogFormat = 'json'): Logger {
  const options = { name, level, redact: { paths: REDACTED, censor: '[redacted]' }, base: { service: name } };
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
