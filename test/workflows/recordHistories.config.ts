// Runs only the release recorder (recordReleaseHistories.ts) on the test servers the suite uses:
//   RECORD_VERSION=<version> npx vitest run -c test/workflows/recordHistories.config.ts
import { defineConfig } from 'vitest/config';
import suite from '../../vitest.config';

export default defineConfig({
  ...suite,
  test: { ...suite.test, include: ['test/workflows/recordReleaseHistories.ts'], reporters: ['default'] },
});
