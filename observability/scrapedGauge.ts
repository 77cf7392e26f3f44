// A gauge read from Postgres when Prometheus scrapes the API: its view of what the worker, the signer and the
// indexers write. Each scrape replaces every series with what `read` returns, so a series whose row is gone stops
// being reported; a reader that wants a series to stay at 0 (an alert's series must not vanish) returns the zero.
import { Gauge, type Registry } from 'prom-client';

export type Sample<L extends string> = readonly [labels: Record<L, string>, value: number];

export function scrapedGauge<L extends string>(
  registry: Registry,
  options: { name: string; help: string; labelNames: readonly L[]; read: () => Promise<Iterable<Sample<L>>> },
): void {
  new Gauge({
    name: options.name,
    help: options.help,
    labelNames: options.labelNames,
    registers: [registry],
    async collect() {
      const samples = [...(await options.read())];
      this.reset();
      for (const [labels, value] of samples) this.set(labels, value);
    },
  });
}
