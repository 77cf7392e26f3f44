import { pino, type Logger } from 'pino';

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

export function createLogger(level: string, name: string): Logger {
  return pino({ name, level, redact: { paths: REDACTED, censor: '[redacted]' }, base: { service: name } });
}

/** An error as a log field: class and message, never a stack (it would show SQL and file paths). */
export function errorFields(error: unknown): { name: string; message: string; code?: string } {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'NonError', message: String(error) };
}

export type { Logger };
