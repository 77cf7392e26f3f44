// An activity context (Temporal's MockActivityEnvironment) whose logger and metric meter keep what an activity
// logged at error level and counted, for tests of activities that alert an operator.
import type { Info } from '@temporalio/activity';
import type { Logger, LogLevel, LogMetadata, MetricMeter } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';

export interface RecordingActivity {
  environment: MockActivityEnvironment;
  errors: Array<{ message: string; meta?: LogMetadata }>;
  counted: Array<{ name: string; value: number; tags?: unknown }>;
  /** Forgets what was recorded so far. */
  clear(): void;
}

/** `info` overrides the mock's activity info: e.g. a first attempt scheduled now, where the mock's is at the epoch. */
export function recordingActivity(info?: Partial<Info>): RecordingActivity {
  const errors: RecordingActivity['errors'] = [];
  const counted: RecordingActivity['counted'] = [];
  const at = (level: LogLevel) => (message: string, meta?: LogMetadata) => void (level === 'ERROR' && errors.push({ message, meta }));
  const logger: Logger = {
    log: (level, message, meta) => at(level)(message, meta),
    trace: at('TRACE'),
    debug: at('DEBUG'),
    info: at('INFO'),
    warn: at('WARN'),
    error: at('ERROR'),
  };
  // Only counters: the activities under test count, and a test fails loudly if one starts using another instrument.
  const metricMeter = {
    createCounter: (name: string) => ({ add: (value: number, tags?: unknown) => counted.push({ name, value, tags }) }),
  } as unknown as MetricMeter;
  return {
    environment: new MockActivityEnvironment(info, { logger, metricMeter }),
    errors,
    counted,
    clear() {
      errors.length = 0;
      counted.length = 0;
    },
  };
}
