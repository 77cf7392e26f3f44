// bin/api.ts in production refuses to start when SETTLEMENT_LIVE_ROUTES lists a pair no indexer watches: it would
// offer live customers a pair whose payments are never detected. The refusal names the variable to set.
import { randomBytes } from 'node:crypto';
import { describe, expect, test, vi } from 'vitest';
import { startServiceProcess } from '../support/serviceProcess';

describe('the API start with a live route it cannot see', () => {
  test('exits 1 naming RPC_URLS_SOLANA_MAINNET for the default route USDC:solana', async () => {
    const api = startServiceProcess('bin/api.ts', {
      APP_ENV: 'production',
      SESSION_TOKEN_SECRET: randomBytes(32).toString('hex'),
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      LOG_LEVEL: 'info',
    });
    try {
      const line = await api.waitForLine((text) => text.includes('"api failed to start"'), 60_000);
      expect(line).toContain(
        'SETTLEMENT_LIVE_ROUTES: lists USDC:solana, but no indexer watches solana on mainnet: set RPC_URLS_SOLANA_MAINNET',
      );
      await vi.waitFor(() => expect(api.child.exitCode).toBe(1), { timeout: 10_000 });
    } finally {
      await api.stop('SIGKILL');
    }
  });
});
