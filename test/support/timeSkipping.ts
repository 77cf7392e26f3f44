import { temporal } from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { testServerInstalled, testServerWrapper } from '../../toolchain/paths';
import { SEARCH_ATTRIBUTES } from '../../workflows/searchAttributes';

/**
 * The Java time-skipping test server provisioned by `npm run setup`, started through its wrapper; where
 * it could not be provisioned, the SDK's own download (needs internet).
 */
export async function createTimeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  const env = await startTestServer();
  // The session workflow upserts these; the dev server registers them at start, this server on request.
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(
      SEARCH_ATTRIBUTES.map((a) => [a.name, temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD]),
    ),
  });
  return env;
}

/**
 * The SDK gives the server's JVM 5 s to listen, which a loaded 2-core machine sometimes misses; a start that
 * timed out is tried again rather than failing the test that needed it.
 */
async function startTestServer(attempts = 3): Promise<TestWorkflowEnvironment> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await TestWorkflowEnvironment.createTimeSkipping({
        server: {
          executable: testServerInstalled() ? { type: 'existing-path', path: testServerWrapper } : { type: 'cached-download' },
        },
      });
    } catch (error) {
      const slowStart = error instanceof Error && error.message.includes('did not start within');
      if (!slowStart || attempt >= attempts) throw error;
    }
  }
}
