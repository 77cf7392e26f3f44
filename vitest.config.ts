import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One real Postgres server and one real Temporal dev server for the whole run (test/support/globalSetup.ts);
    // each test file gets its own database and its own task queue.
    globalSetup: ['test/support/globalSetup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ['default', './test/support/summaryReporter.ts'],
  },
});
