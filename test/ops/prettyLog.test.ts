// LOG_FORMAT=pretty (observability/prettyLog.ts), `npm start`'s default: one short levelled line per pino entry, the
// redaction of the JSON lines kept; and the Temporal SDK's lines that are no problem (webpack's statistics, the
// signer worker having no workflows) kept out of a developer's terminal at the info level.
import type { LogLevel, LogMetadata, Logger as TemporalLogger } from '@temporalio/common';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env';
import { prettyDestination, prettyLine } from '../../observability/prettyLog';
import { PinoTemporalLogger, withStatsAtDebug } from '../../observability/temporalLogger';

describe('pretty log lines', () => {
  it('shows time, level, process and message on one line, then the fields, without the task token', () => {
    const time = Date.UTC(2026, 10, 27, 12, 45, 0, 123);
    const json = JSON.stringify({
      level: 40,
      time,
      service: 'worker',
      name: 'worker',
      taskToken: 'CiQw',
      attempt: 2,
      error: { name: 'ContractFunctionExecutionError', message: 'returned no data ("0x")' },
      msg: 'Activity failed',
    });
    expect(prettyLine(json, false)).toBe(
      '12:45:00.123 WARN  worker   Activity failed  attempt=2 error.name=ContractFunctionExecutionError error.message="returned no data (\\"0x\\")"\n',
    );
  });

  it('keeps a multi-line message on one line and passes a line that is not JSON through', () => {
    expect(prettyLine(JSON.stringify({ level: 30, time: 0, service: 'dev', msg: 'first\nsecond' }), false)).toBe(
      '00:00:00.000 INFO  dev      first ⏎ second\n',
    );
    expect(prettyLine('plain text', false)).toBe('plain text\n');
  });

  it('colours only when asked', () => {
    expect(prettyLine(JSON.stringify({ level: 50, time: 0, service: 'api', msg: 'failed' }), true)).toContain('\u001b[');
  });

  it('is the default of the dev command alone, and LOG_FORMAT chooses', () => {
    expect(loadConfig({}, 'dev').logFormat).toBe('pretty');
    expect(loadConfig({}, 'api').logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }, 'dev').logFormat).toBe('json');
  });

  it('writes redacted fields as redacted', () => {
    const written: string[] = [];
    const output = { isTTY: false, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
    const logger = pino({ redact: { paths: ['secret'], censor: '[redacted]' }, base: { service: 'api' } }, prettyDestination(output));
    logger.info({ secret: 'whsec_1234' }, 'made');
    expect(written.join('')).toMatch(/INFO {2}api +made {2}secret=\[redacted\]\n$/);
  });
});

describe('Temporal SDK lines at a terminal', () => {
  function recording(): { logger: TemporalLogger; lines: [LogLevel, string][] } {
    const lines: [LogLevel, string][] = [];
    const log = (level: LogLevel, message: string) => void lines.push([level, message]);
    return {
      lines,
      logger: {
        log,
        trace: (message: string) => log('TRACE', message),
        debug: (message: string) => log('DEBUG', message),
        info: (message: string) => log('INFO', message),
        warn: (message: string) => log('WARN', message),
        error: (message: string) => log('ERROR', message),
      },
    };
  }

  it("puts webpack's multi-line statistics at debug and leaves the bundle's one-liner and errors as they are", () => {
    const { logger, lines } = recording();
    const bundler = withStatsAtDebug(logger);
    bundler.info('asset workflow-bundle.js 1.94 MiB\nruntime modules 1.08 KiB');
    bundler.info('Workflow bundle created', { size: '1.94MB' } satisfies LogMetadata);
    bundler.error('Module not found\nin workflows/index.ts');
    expect(lines.map(([level]) => level)).toEqual(['DEBUG', 'INFO', 'ERROR']);
  });

  it("logs the signer worker's 'no workflows registered' at debug, not as a warning", () => {
    const entries: { level: number; msg: string }[] = [];
    const logger = pino(
      { level: 'debug' },
      { write: (line: string) => void entries.push(JSON.parse(line) as { level: number; msg: string }) },
    );
    const temporal = new PinoTemporalLogger(logger);
    temporal.warn('No workflows registered, not polling for workflow tasks');
    temporal.warn('Activity failed');
    expect(entries.map((entry) => [entry.level, entry.msg])).toEqual([
      [20, 'No workflows registered, not polling for workflow tasks'],
      [40, 'Activity failed'],
    ]);
  });
});
