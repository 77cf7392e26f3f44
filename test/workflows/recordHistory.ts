// Records workflow histories for the replay test (test/workflows/replayHistories.test.ts), as the release policy in
// docs/operations.md#releasing-workflow-changes asks:
//   npx tsx test/workflows/recordHistory.ts <version> <workflow id>...
// writes test/workflows/histories/<version>/<workflow id>.bin from the Temporal server at TEMPORAL_ADDRESS
// (127.0.0.1:7233 unless set) and TEMPORAL_NAMESPACE (default). The histories are binary protobuf
// (temporal.api.history.v1.History): the SDK's JSON conversion cannot run with the protobufjs copies installed here.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import proto from '@temporalio/proto';

const [version, ...workflowIds] = process.argv.slice(2);
if (!version || workflowIds.length === 0) {
  console.error('usage: npx tsx test/workflows/recordHistory.ts <version> <workflow id>...');
  process.exit(2);
}
const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
try {
  const client = new Client({ connection, namespace: process.env.TEMPORAL_NAMESPACE ?? 'default' });
  const folder = new URL(`./histories/${version}/`, import.meta.url);
  mkdirSync(folder, { recursive: true });
  for (const workflowId of workflowIds) {
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    const file = new URL(`${workflowId}.bin`, folder);
    writeFileSync(file, proto.temporal.api.history.v1.History.encode(history).finish());
    console.log(`${workflowId}: ${history.events?.length ?? 0} events → ${file.pathname}`);
  }
} finally {
  await connection.close();
}
