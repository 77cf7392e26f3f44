// The Temporal runtime of a worker process, installed once before any worker or native connection exists:
// every SDK, activity and Core log line goes to pino as JSON, and Core's metrics (the SDK worker metrics plus
// the counters activities add through `metricMeter`) are served for Prometheus at `<bindAddress>/metrics`.
import { makeTelemetryFilterString, Runtime, type RuntimeOptions } from '@temporalio/worker';
import type { Logger } from './logger';
import { PinoTemporalLogger } from './temporalLogger';

export interface WorkerRuntimeOptions {
  logger: Logger;
  /** `host:port` of Core's Prometheus exporter; undefined serves no metrics. */
  metricsBindAddress: string | undefined;
  /** Left to the SDK by default (SIGINT, SIGTERM: workers drain, then run() resolves); [] when the caller orders shutdown. */
  shutdownSignals?: NodeJS.Signals[];
}

export function installWorkerRuntime(options: WorkerRuntimeOptions): Runtime {
  const runtimeOptions: RuntimeOptions = {
    logger: new PinoTemporalLogger(options.logger),
    telemetryOptions: {
      // Core's own lines at WARN and above, forwarded to the logger above instead of its plain-text console.
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} },
      ...(options.metricsBindAddress ? { metrics: { prometheus: { bindAddress: options.metricsBindAddress } } } : {}),
    },
    ...(options.shutdownSignals ? { shutdownSignals: options.shutdownSignals } : {}),
  };
  return Runtime.install(runtimeOptions);
}
