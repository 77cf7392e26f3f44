// bin/api.ts and bin/worker.ts in production refuse to start when SETTLEMENT_LIVE_ROUTES lists a pair no indexer
// watches, or whose route back to the treasury lacks a piece: the API would offer live customers a pair whose
// payments are never detected or never come back, and the worker settles by the same routes. The refusal names each
// missing piece and the variable to set.
import { randomBytes } from 'node:crypto';
import { describe, expect, test, vi } from 'vitest';
import { startServiceProcess } from '../support/serviceProcess';

describe('the API start with a live route it cannot see', () => {
  test('exits 1 naming RPC_URLS_SOLANA_MAINNET for the default route USDC:solana', async () => {
    const api = startServiceProcess('bin/api.ts', {
      APP_ENV: 'production',
      TEMPORAL_API_KEY: 'key-from-cloud',
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

describe('the API start with a live route that lacks pieces', () => {
  test('exits 1 naming each piece USDT on bsc (held inventory) lacks', async () => {
    const api = startServiceProcess('bin/api.ts', {
      APP_ENV: 'production',
      TEMPORAL_API_KEY: 'key-from-cloud',
      SESSION_TOKEN_SECRET: randomBytes(32).toString('hex'),
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      LOG_LEVEL: 'info',
      SETTLEMENT_LIVE_ROUTES: 'USDT:bsc',
      RPC_URLS_BSC_MAINNET: 'https://bsc.example',
    });
    try {
      const line = await api.waitForLine((text) => text.includes('"api failed to start"'), 60_000);
      expect(line).toContain(
        'SETTLEMENT_LIVE_ROUTES: lists USDT:bsc, but bsc has one RPC provider, not two: set RPC_URLS_BSC_MAINNET (two distinct URLs), no DepositCollector on bsc: set EVM_DEPOSIT_COLLECTOR_LIVE, no inventory cap for USDT:bsc: set INVENTORY_CAPS (USDT:bsc=<whole USD>), no rebalancing address on bsc: set INVENTORY_REBALANCE_ADDRESS_BSC_LIVE, or remove USDT:bsc',
      );
      await vi.waitFor(() => expect(api.child.exitCode).toBe(1), { timeout: 10_000 });
    } finally {
      await api.stop('SIGKILL');
    }
  });
});

describe('the worker start with a live route it cannot see', () => {
  test('exits 1 with the API refusal, before any connection', async () => {
    const worker = startServiceProcess('bin/worker.ts', {
      APP_ENV: 'production',
      TEMPORAL_API_KEY: 'key-from-cloud',
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      LOG_LEVEL: 'info',
    });
    try {
      const line = await worker.waitForLine((text) => text.includes('"worker failed"'), 60_000);
      expect(line).toContain(
        'SETTLEMENT_LIVE_ROUTES: lists USDC:solana, but no indexer watches solana on mainnet: set RPC_URLS_SOLANA_MAINNET',
      );
      await vi.waitFor(() => expect(worker.child.exitCode).toBe(1), { timeout: 10_000 });
    } finally {
      await worker.stop('SIGKILL');
    }
  });
});
