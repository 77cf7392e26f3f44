// Figures, medians and the printed/written results table with the machine it was measured on.
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

export interface Row {
  benchmark: string;
  figure: string;
  detail: string;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The nearest-rank percentile of values sorted ascending. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** p50, p99 and max of latencies in milliseconds. */
export function latencySummary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const ms = (p: number) => `${percentile(sorted, p).toFixed(0)} ms`;
  return `p50 ${ms(50)}, p99 ${ms(99)}, max ${(sorted.at(-1) ?? Number.NaN).toFixed(0)} ms`;
}

export const progress = (line: string) => console.log(`▸ ${line}`);

export function machine(): string {
  const cores = cpus();
  return `${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node.js ${process.version}, ${process.platform}/${process.arch}`;
}

export function table(rows: Row[]): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  return [
    '| Benchmark | Result | Detail |',
    '|---|---|---|',
    ...rows.map((r) => `| ${escape(r.benchmark)} | ${escape(r.figure)} | ${escape(r.detail)} |`),
  ].join('\n');
}

export function writeResults(path: string, rows: Row[], notes: string[]): void {
  const text = [
    '# Benchmark results',
    '',
    `Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${machine()}.`,
    'Everything on loopback: embedded Postgres, the Temporal CLI dev server (SQLite in memory), a Hardhat node, the local Solana chain (litesvm behind its JSON-RPC server).',
    '',
    table(rows),
    '',
    ...notes.map((note) => `- ${note}`),
    '',
  ].join('\n');
  writeFileSync(path, text);
}
