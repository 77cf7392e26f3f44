import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One real Postgres server and one real Temporal dev server for the whole run (test/support/globalSetup.ts);
    // each test file gets its own database and its own task queue.
    globalSetup: ['test/support/globalSetup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Each worker process runs file after file and imports the service's modules (viem, the Solana kit, the
    // Temporal SDK, …) once, not once per file: isolated, importing took about a third of the run. Files share
    // no state but the servers above: each makes its own database, queues, service and registries.
    isolate: false,
    testTimeout: 60_000,
    // expect.poll waits for something to happen (a page to show a message, a row to appear); its 1 s default is
    // a speed assertion in disguise on a loaded 2-core machine, so it waits up to 10 s before it gives up.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 180_000,
    reporters: ['default', './test/support/summaryReporter.ts'],
  },
});
