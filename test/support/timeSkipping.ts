import { TestWorkflowEnvironment } from '@temporalio/testing';
import { testServerInstalled, testServerWrapper } from '../../toolchain/paths';

/**
 * The Java time-skipping test server provisioned by `npm run setup`, started through its wrapper; where
 * it could not be provisioned, the SDK's own download (needs internet).
 */
export function createTimeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createTimeSkipping({
    server: {
      executable: testServerInstalled() ? { type: 'existing-path', path: testServerWrapper } : { type: 'cached-download' },
    },
  });
}
