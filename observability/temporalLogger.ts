// The Temporal SDK's Logger backed by pino, installed with `Runtime.install({ logger })`, so the worker's own
// lines, activity `log` lines (which carry workflowId, runId, activityId, activityType and taskQueue) and the
// forwarded Core lines come out as the same JSON lines as the rest of the service.
import type { LogLevel, LogMetadata, Logger as TemporalLogger } from '@temporalio/common';
import { errorFields, type Logger } from './logger';

/**
 * The SDK's lines about a set-up that is as intended: the signer worker runs activities only and no worker
 * serves Nexus, so these say nothing is wrong (the first is a WARN, which would read as a problem).
 */
const AS_INTENDED = new Set([
  'No workflows registered, not polling for workflow tasks',
  'No Nexus services registered, not polling for Nexus tasks',
]);

const PINO_LEVEL = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const satisfies Record<
  LogLevel,
  string
>;

/** Errors become class and message only, like every other line (a stack would show SQL and file paths). */
function fields(meta: LogMetadata | undefined): Record<string, unknown> {
  if (!meta) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta)) out[key] = value instanceof Error ? errorFields(value) : value;
  return out;
}

export class PinoTemporalLogger implements TemporalLogger {
  constructor(private readonly logger: Logger) {}

  log(level: LogLevel, message: string, meta?: LogMetadata): void {
    this.logger[AS_INTENDED.has(message) ? 'debug' : PINO_LEVEL[level]](fields(meta), message);
  }
  trace(message: string, meta?: LogMetadata): void {
    this.log('TRACE', message, meta);
  }
  debug(message: string, meta?: LogMetadata): void {
    this.log('DEBUG', message, meta);
  }
  info(message: string, meta?: LogMetadata): void {
    this.log('INFO', message, meta);
  }
  warn(message: string, meta?: LogMetadata): void {
    this.log('WARN', message, meta);
  }
  error(message: string, meta?: LogMetadata): void {
    this.log('ERROR', message, meta);
  }
}

/**
 * For bundleWorkflowCode: webpack's statistics (a page of module sizes logged at INFO) at DEBUG; its one-line
 * "Workflow bundle created" and any error as they come.
 */
export function withStatsAtDebug(logger: TemporalLogger): TemporalLogger {
  const demoted = (level: LogLevel, message: string): LogLevel => (level === 'INFO' && message.includes('\n') ? 'DEBUG' : level);
  return {
    log: (level, message, meta) => logger.log(demoted(level, message), message, meta),
    trace: (message, meta) => logger.trace(message, meta),
    debug: (message, meta) => logger.debug(message, meta),
    info: (message, meta) => logger.log(demoted('INFO', message), message, meta),
    warn: (message, meta) => logger.warn(message, meta),
    error: (message, meta) => logger.error(message, meta),
  };
}
