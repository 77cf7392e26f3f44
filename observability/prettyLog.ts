// LOG_FORMAT=pretty, the default of `npm start`: each pino line rewritten as one short line a person reads,
// `12:45:00.123 WARN  worker  Activity failed  activityType=startCctpTransfer attempt=2 error.message="…"`.
// The JSON lines are what production ships to a log store; this is only how a terminal shows them.
import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

const LEVELS: Record<number, { label: string; style: Style }> = {
  10: { label: 'TRACE', style: 'gray' },
  20: { label: 'DEBUG', style: 'gray' },
  30: { label: 'INFO ', style: 'green' },
  40: { label: 'WARN ', style: 'yellow' },
  50: { label: 'ERROR', style: 'red' },
  60: { label: 'FATAL', style: ['bgRed', 'white'] },
};

/** Fields the line's own layout shows, or that say little to a person at a terminal (Temporal's task token, run id). */
const LAYOUT = new Set([
  'level',
  'time',
  'msg',
  'service',
  'name',
  'pid',
  'hostname',
  'taskToken',
  'namespace',
  'isLocal',
  'sdkComponent',
  'workflowRunId',
  'activityId',
]);

function flatten(prefix: string, value: unknown, out: string[]): void {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) flatten(prefix ? `${prefix}.${key}` : key, inner, out);
    return;
  }
  out.push(`${prefix}=${typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)}`);
}

function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  return date.toISOString().slice(11, 23);
}

/** One pino JSON line as one readable line (with a newline); a line that is not pino's JSON passes unchanged. */
export function prettyLine(json: string, colors: boolean): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  // The caller decides for the stream it writes to; styleText alone would look at process.stdout.
  const paint = (style: Style, text: string) => (colors ? styleText(style, text, { validateStream: false }) : text);
  const level = LEVELS[Number(record.level)] ?? { label: String(record.level).padEnd(5), style: 'white' };
  const fields: string[] = [];
  for (const [key, value] of Object.entries(record)) if (!LAYOUT.has(key) && value !== undefined) flatten(key, value, fields);
  const message = String(record.msg ?? '').replace(/\s*\n\s*/g, ' ⏎ ');
  const source = String(record.service ?? record.name ?? '').padEnd(8);
  return `${paint('gray', clock(record.time))} ${paint(level.style, level.label)} ${paint('cyan', source)} ${message}${fields.length > 0 ? `  ${paint('gray', fields.join(' '))}` : ''}\n`;
}

/** A pino destination writing pretty lines to stdout, in order with console.log (both write to process.stdout). */
export function prettyDestination(output: NodeJS.WriteStream = process.stdout): { write(line: string): void } {
  const colors = output.isTTY === true && !process.env.NO_COLOR;
  return { write: (line: string) => void output.write(prettyLine(line, colors)) };
}
