// bin/signer.ts refuses to start without a database: the Solana deposit addresses it derives are recorded before they
// are answered, so a signer without one would run and refuse every session its address.
import { describe, expect, test, vi } from 'vitest';
import { startServiceProcess } from '../support/serviceProcess';

describe('the signer start without DATABASE_URL', () => {
  test('exits 1 naming DATABASE_URL, before any Temporal connection', async () => {
    const signer = startServiceProcess('bin/signer.ts', {
      SIGNER_MODE: 'test',
      DATABASE_URL: '',
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      LOG_LEVEL: 'info',
    });
    try {
      const line = await signer.waitForLine((text) => text.includes('"signer failed"'), 60_000);
      expect(line).toContain('DATABASE_URL: Required');
      await vi.waitFor(() => expect(signer.child.exitCode).toBe(1), { timeout: 10_000 });
    } finally {
      await signer.stop('SIGKILL');
    }
  });
});
