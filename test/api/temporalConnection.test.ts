// The API's Temporal connection disables the client's AsyncLocalStorage whenever no call is in its scope,
// so requests that never call Temporal do not pay Node 20's promise hooks; a call still carries its deadline
// across its awaits, also while another call ends before it.
import { isGrpcDeadlineError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiTemporalConnection } from '../../api/temporalConnection';

let connection: ApiTemporalConnection;

beforeAll(async () => {
  connection = await ApiTemporalConnection.connect({ address: inject('temporalAddress') });
});
afterAll(async () => {
  await connection?.close();
});

/** Node's own flag on the storage: while it is set, promise hooks run for every promise of the process. */
const storageEnabled = () => (connection.callContextStorage as unknown as { enabled: boolean }).enabled;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const systemInfo = () => connection.workflowService.getSystemInfo({});

describe('ApiTemporalConnection', () => {
  it('leaves the storage disabled once connected and once each call has ended', async () => {
    expect(storageEnabled()).toBe(false);
    await connection.withDeadline(Date.now() + 5_000, systemInfo);
    expect(storageEnabled()).toBe(false);
    // A call naming its namespace opens a scope of its own for the namespace header.
    await connection.workflowService.describeNamespace({ namespace: 'default' });
    expect(storageEnabled()).toBe(false);
  });

  it('keeps the storage enabled while a call is in scope', async () => {
    let during: boolean | undefined;
    await connection.withDeadline(Date.now() + 5_000, async () => {
      await sleep(5);
      during = storageEnabled();
      return systemInfo();
    });
    expect(during).toBe(true);
  });

  it('still applies a deadline after an await, while a shorter call begins and ends within it', async () => {
    const late = connection.withDeadline(Date.now() + 20, async () => {
      await sleep(100);
      return systemInfo();
    });
    // Ends first: were the storage disabled at its end, the first call's RPC would go out with no deadline and succeed.
    await connection.withDeadline(Date.now() + 5_000, systemInfo);
    const outcome = await late.then(
      () => 'answered',
      (error: unknown) => (isGrpcDeadlineError(error) ? 'deadline exceeded' : String(error)),
    );
    expect(outcome).toBe('deadline exceeded');
    expect(storageEnabled()).toBe(false);
  });
});
